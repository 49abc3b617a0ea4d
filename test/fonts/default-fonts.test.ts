/**
 * The default font set: generic families and common platform names are drawn with fonts compose
 * ships, whatever the system's font configuration says. The same text rendered with the system's
 * configuration and with an empty one (FONTCONFIG_FILE, which would leave the browser no font at
 * all) gives the same frame, with ink on it; Arial and Arimo draw alike, as do sans-serif,
 * system-ui and Inter.
 */
import { readFile } from "node:fs/promises";
import { PNG } from "pngjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { limited, render, RENDER_HOOK_TIMEOUT_MS, type CliResult } from "../support/cli.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";

const ROW = 30;
const NAMES = ["sans-serif", "system-ui", "-apple-system", "Inter", "Arial", "Arimo", "serif", "Tinos", "monospace", "Cousine"];
const TEXT = "Ag őЖ 😀";

let project: TempProject;
const runs = new Map<string, CliResult>();

function rows(names: string[]): string {
  return names
    .map((name, index) => `<div style="position:absolute;left:0;top:${index * ROW}px;height:${ROW}px;font:22px ${name};color:#000">${TEXT}</div>`)
    .join("\n");
}

beforeAll(async () => {
  project = await createProject({
    "fonts/index.html": compositionHtml({ id: "fonts", width: 320, height: ROW * NAMES.length, duration: 0.1, backdrop: "#ffffff", body: rows(NAMES) }),
    "empty.conf": '<?xml version="1.0"?>\n<fontconfig></fontconfig>\n',
  });
  const renderWith = (name: string, env: Record<string, string>) => async () => {
    runs.set(name, await render([project.path("fonts"), "--format", "png-sequence", "--output", project.path(name), "--workers", "1"], { env }));
  };
  await limited(2, [renderWith("system", {}), renderWith("empty", { FONTCONFIG_FILE: project.path("empty.conf") })]);
}, RENDER_HOOK_TIMEOUT_MS);

afterAll(async () => {
  await project?.remove();
});

async function frame(name: string): Promise<PNG> {
  expect(runs.get(name)?.code, runs.get(name)?.stderr).toBe(0);
  return PNG.sync.read(await readFile(project.path(name, "frame_000000.png")));
}

/** The row's pixels, as bytes. */
function row(png: PNG, index: number): Buffer {
  return png.data.subarray(index * ROW * png.width * 4, (index + 1) * ROW * png.width * 4);
}

describe("the default font set", () => {
  it("draws the same frame under the system's font configuration and under an empty one", async () => {
    const [system, empty] = [await frame("system"), await frame("empty")];
    for (const [index] of NAMES.entries()) {
      const ink = [...row(system, index)].filter((value, i) => i % 4 === 0 && value < 128).length;
      expect(ink, `${NAMES[index]} draws text`).toBeGreaterThan(100);
    }
    expect(Buffer.compare(system.data, empty.data)).toBe(0);
  });

  it("draws each name with its family of the set", async () => {
    const png = await frame("system");
    const same = (a: string, b: string) => Buffer.compare(row(png, NAMES.indexOf(a)), row(png, NAMES.indexOf(b))) === 0;
    expect(same("sans-serif", "Inter")).toBe(true);
    expect(same("system-ui", "Inter")).toBe(true);
    expect(same("-apple-system", "Inter")).toBe(true);
    expect(same("Arial", "Arimo")).toBe(true);
    expect(same("serif", "Tinos")).toBe(true);
    expect(same("monospace", "Cousine")).toBe(true);
    expect(same("Inter", "Arimo")).toBe(false);
  });
});
