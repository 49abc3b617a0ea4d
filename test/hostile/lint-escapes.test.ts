/**
 * `compose lint` escapes control and direction characters from the composition (U+202E, which
 * reverses what follows on a terminal, and U+200B, which is invisible) exactly as render does.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lines, render, runCli } from "../support/cli.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";

let project: TempProject;

beforeAll(async () => {
  project = await createProject({
    "index.html": compositionHtml({ id: "escapes", duration: 0.2, body: '<p id="x" data-start="evil\u202Egnp.exe\u200B" data-duration="0.1"></p>' }),
  });
});

afterAll(() => project?.remove());

describe("lint's escapes", () => {
  it("are render's: U+202E and U+200B print as \\u202e and \\u200b, in the same message", async () => {
    const lint = await runCli(["lint", "."], { cwd: project.dir });
    expect(lint.code, lint.stderr).toBe(1);
    const finding = lines(lint.stdout).find((line) => line.includes("timing-bad-start")) ?? "";
    expect(finding).toContain("evil\\u202egnp.exe\\u200b");
    expect(lint.stdout).not.toMatch(/[\u202e\u200b]/);
    const rendered = await render([".", "-o", project.path("out.mp4")], { cwd: project.dir });
    expect(rendered.code, rendered.stderr).toBe(1);
    const message = finding.split("timing-bad-start  ")[1]!;
    expect(lines(rendered.stderr)).toContain(
      `error: [timing-bad-start] ${message} (index.html:${finding.split(":")[1]}:${finding.split(":")[2]!.split(" ")[0]})`,
    );
  });
});
