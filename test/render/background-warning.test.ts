/**
 * A transparent format warns when html, body or the composition element paints a background,
 * unless the composition says it is meant to be opaque.
 */
import { readFileSync } from "node:fs";
import { PNG } from "pngjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lines, render } from "../support/cli.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";

let project: TempProject;

beforeAll(async () => {
  project = await createProject({
    "painted.html": compositionHtml({
      id: "painted",
      duration: 0.1,
      background: "#123456",
      css: "body { background: #000 }",
      body: `<div style="width:20px;height:20px;background:#f00"></div>`,
    }),
    "meant.html": compositionHtml({
      id: "meant",
      duration: 0.1,
      background: "#123456",
      body: `<div style="width:20px;height:20px;background:#f00"></div>`,
    }).replace('data-composition-id="meant"', 'data-composition-id="meant" data-opaque'),
    "clear.html": compositionHtml({ id: "clear", duration: 0.1, body: `<div style="width:20px;height:20px;background:#f00"></div>` }),
  });
});
afterAll(() => project?.remove());

describe("background warning", () => {
  it("names what paints a background when the format keeps transparency", async () => {
    const result = await render([project.path("painted.html"), "--format", "png-sequence", "--quiet", "--output", project.path("p")]);
    expect(result.code).toBe(0);
    expect(lines(result.stderr)).toEqual([
      "warning: [opaque-background] png-sequence keeps transparency, but body, the composition element set a background, so the output will not be transparent",
    ]);
  });

  it("says nothing for an opaque format, or when nothing paints a background", async () => {
    const [mp4, clear] = await Promise.all([
      render([project.path("painted.html"), "--quiet", "--output", project.path("p.mp4")]),
      render([project.path("clear.html"), "--format", "mov", "--quiet", "--output", project.path("c.mov")]),
    ]);
    expect([mp4.code, mp4.stderr]).toEqual([0, ""]);
    expect([clear.code, clear.stderr]).toEqual([0, ""]);
  });

  it("says nothing when the composition element has data-opaque, and keeps the background", async () => {
    const result = await render([project.path("meant.html"), "--format", "png-sequence", "--quiet", "--output", project.path("m")]);
    expect([result.code, result.stderr]).toEqual([0, ""]);
    const frame = PNG.sync.read(readFileSync(project.path("m/frame_000000.png")));
    const corner = (frame.width * frame.height - 1) * 4;
    expect([...frame.data.subarray(corner, corner + 4)]).toEqual([0x12, 0x34, 0x56, 255]);
  });
});
