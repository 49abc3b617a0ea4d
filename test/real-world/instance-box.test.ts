/**
 * A sub-composition instance fills its host box edge to edge, whole-document and <template> files
 * alike, without a reset of their own: three levels deep, the frames equal the same markup inline.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { render } from "../support/cli.js";
import { decodeFrame, pixel } from "../support/media.js";
import { createProject, type TempProject } from "../support/project.js";

interface Level {
  id: string;
  width: number;
  height: number;
  background: string;
  square: string;
}

const LEVELS: Level[] = [
  { id: "one", width: 280, height: 140, background: "#203040", square: "#ff0000" },
  { id: "two", width: 240, height: 100, background: "#405060", square: "#00ff00" },
  { id: "three", width: 200, height: 60, background: "#608090", square: "#0000ff" },
];

const HOST_STYLE = "position:absolute;left:10px;top:12px";

/** The inside of level `index`'s composition element: a square, then the host of the next level. */
function inside(index: number, next: string): string {
  const level = LEVELS[index]!;
  return `<div style="position:absolute;right:4px;bottom:4px;width:16px;height:16px;background:${level.square}"></div>${next}`;
}

function file(index: number): string {
  const level = LEVELS[index]!;
  const nextFile = index + 1 < LEVELS.length ? `level${index + 1}.html` : undefined;
  const host = nextFile ? `<div style="${HOST_STYLE}" data-composition-id="${LEVELS[index + 1]!.id}-host" data-composition-src="${nextFile}"></div>` : "";
  // No CSS size and no margin reset: data-width / data-height size the element.
  const root = `<div style="position:relative;overflow:hidden;background:${level.background}" data-composition-id="${level.id}" data-width="${level.width}" data-height="${level.height}">${inside(index, host)}</div>`;
  return index === 1 ? `<template>${root}</template>` : `<!doctype html><html><body>${root}</body></html>`;
}

/** The same three levels written inline in one document, each sized by its CSS. */
function inline(index: number): string {
  if (index >= LEVELS.length) return "";
  const level = LEVELS[index]!;
  return `<div style="${HOST_STYLE}"><div style="position:relative;overflow:hidden;width:${level.width}px;height:${level.height}px;background:${level.background}">${inside(index, inline(index + 1))}</div></div>`;
}

function top(content: string): string {
  return `<!doctype html><html><body><div style="position:relative;overflow:hidden;width:320px;height:180px;background:#101010" data-composition-id="top" data-width="320" data-height="180" data-duration="0.1">${content}</div></body></html>`;
}

let project: TempProject;
beforeAll(async () => {
  project = await createProject({
    "nested.html": top(`<div style="${HOST_STYLE}" data-composition-id="one-host" data-composition-src="level0.html"></div>`),
    "level0.html": file(0),
    "level1.html": file(1),
    "level2.html": file(2),
    "inline.html": top(inline(0)),
  });
});
afterAll(() => project?.remove());

describe("instance boxes", () => {
  it("three levels of instances are pixel-exact against the same markup inline", async () => {
    const [nested, inlined] = await Promise.all(
      ["nested", "inline"].map((name) =>
        render([project.path(`${name}.html`), "--format", "png-sequence", "--quiet", "--workers", "1", "--output", project.path(name)]),
      ),
    );
    expect([nested!.code, inlined!.code]).toEqual([0, 0]);
    const [a, b] = await Promise.all(["nested", "inline"].map((name) => decodeFrame(project.path(`${name}/frame_000000.png`))));
    // The innermost square: 10 + 10 + 10 px in, 4 px from the bottom right of level three.
    expect(pixel(a!, 30 + 200 - 12, 36 + 60 - 12)).toEqual([0, 0, 255, 255]);
    expect(a!.data.equals(b!.data)).toBe(true);
  });
});
