/**
 * The composition element is sized by data-width / data-height when its CSS does not size it, with
 * no html/body margin in the way; a CSS size that disagrees is reported by lint and by render.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lines, render, runCli } from "../support/cli.js";
import { decodeFrame, hex, isColour } from "../support/media.js";
import { createProject, type TempProject } from "../support/project.js";

/** The pattern of many hand-written compositions: no CSS size, overflow hidden, no margin reset. */
const UNSIZED = `<!doctype html><html><head><style>
  #stage { overflow: hidden; background: #204080; position: relative; }
  #dot { position: absolute; left: 0; top: 0; width: 20px; height: 20px; background: #ff0000; }
</style></head><body>
<div id="stage" data-composition-id="unsized" data-width="320" data-height="180" data-duration="0.1"><div id="dot"></div></div>
</body></html>`;

const MISSIZED = `<!doctype html><html><body style="margin:0">
<div id="stage" style="width: 320px; height: 100px; background: #204080" data-composition-id="missized" data-width="320" data-height="180" data-duration="0.1"></div>
</body></html>`;

/** A transform is not a size: scaled down, the element still lays out at data-width x data-height. */
const SCALED = UNSIZED.replace('data-composition-id="unsized"', 'style="transform: scale(0.5)" data-composition-id="scaled"');

let project: TempProject;
beforeAll(async () => {
  project = await createProject({ "unsized.html": UNSIZED, "missized.html": MISSIZED, "scaled.html": SCALED });
});
afterAll(() => project?.remove());

describe("the composition element", () => {
  it("fills the frame from data-width / data-height, its content at the frame's corner", async () => {
    const result = await render([project.path("unsized.html"), "--output", project.path("unsized.mp4")]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const frame = await decodeFrame(project.path("unsized.mp4"));
    expect(isColour(frame, 319, 179, hex("#204080"), 12)).toBe(true);
    expect(isColour(frame, 160, 90, hex("#204080"), 12)).toBe(true);
    expect(isColour(frame, 2, 2, hex("#ff0000"), 40)).toBe(true);
    expect(isColour(frame, 16, 16, hex("#ff0000"), 40)).toBe(true);
    expect(isColour(frame, 60, 8, hex("#204080"), 12)).toBe(true);
  });

  it("warns in lint and in render when its CSS size disagrees with the attributes", async () => {
    const message =
      'composition "missized" is 320x100 px by its CSS but 320x180 by data-width / data-height, and frames are 320x180: remove the CSS size (data-width / data-height size the composition element) or make them agree';
    const [lint, rendered] = await Promise.all([
      runCli(["lint", project.path("missized.html")]),
      render([project.path("missized.html"), "--quiet", "--output", project.path("missized.mp4")]),
    ]);
    expect(lint.stdout).toContain(`warning  root-size-mismatch  ${message}`);
    expect(rendered.code).toBe(0);
    expect(lines(rendered.stderr)).toEqual([`warning: [root-size-mismatch] ${message}`]);
  });

  it("says nothing of a transform", async () => {
    const result = await render([project.path("scaled.html"), "--quiet", "--output", project.path("scaled.mp4")]);
    expect([result.code, result.stderr]).toEqual([0, ""]);
  });
});
