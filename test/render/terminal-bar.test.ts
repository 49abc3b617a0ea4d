/** On a terminal, `compose render` draws a live progress bar, then the same closing lines as in a log. */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI_BIN } from "../support/cli.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";

let project: TempProject;
let screen: string;

beforeAll(async () => {
  project = await createProject({
    "index.html": compositionHtml({ id: "bar-demo", duration: 0.5, body: `<div style="width:20px;height:20px;background:#f00"></div>` }),
  });
  // util-linux's script(1) gives the CLI a pseudo-terminal, as a person's shell would.
  const command = `${process.execPath} ${CLI_BIN} render . --output out.mp4`;
  const { stdout } = await promisify(execFile)("script", ["-qec", command, "/dev/null"], { cwd: project.dir, env: { ...process.env, NO_COLOR: "1" } });
  screen = stdout;
}, 60_000);
afterAll(() => project?.remove());

describe("terminal output on a TTY", () => {
  it("redraws one progress bar with frames done, frames per second and time left", () => {
    expect(screen).toMatch(/\r|\u001b\[1G/);
    expect(screen).toMatch(/15\/15 frames \| [\d.]+ fps \| \d+s left/);
  });

  it("ends with the frames-captured line and the output line", () => {
    expect(screen).toMatch(/Captured 15 frames in [\d.]+ s/);
    expect(screen).toMatch(/Output: out\.mp4 \(0\.50 s, 320x180, [\d.]+ (B|KB)\)/);
  });
});
