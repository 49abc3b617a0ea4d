/**
 * Sub-compositions nest to any depth, come as whole documents or <template>-wrapped markup, keep
 * transparent output transparent, and refuse cycles and missing files with one clear line.
 */
import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lines, render, type CliResult } from "../support/cli.js";
import { boxX, decodeFrame, hex, pixel } from "../support/media.js";
import { createProject, type TempProject } from "../support/project.js";

/** A level that shows a square of `colour` at `left` and embeds `inner` (if any) below it, 0.2 s in. */
function level(id: string, colour: string, left: number, inner?: string, duration = 0.6): string {
  const host = inner
    ? `<div style="position:absolute;left:0;top:30px" data-composition-id="${id}-inner" data-composition-src="${inner}" data-start="0.2"></div>`
    : "";
  return `<!doctype html><html><head><style>* { margin: 0 }
    #sq { position: absolute; top: 0; left: ${left}px; width: 20px; height: 20px; background: ${colour}; }</style></head>
    <body><div id="root" style="position:relative;width:320px;height:150px" data-composition-id="${id}" data-width="320" data-height="150" data-duration="${duration}">
    <div id="sq"></div>${host}</div></body></html>`;
}

describe("nesting", () => {
  let project: TempProject;
  let result: CliResult;

  beforeAll(async () => {
    project = await createProject({
      "index.html": level("top", "#ff0000", 0, "levels/two.html", 1),
      // Paths are relative to the file that holds the host.
      "levels/two.html": level("two", "#00ff00", 40, "three.html"),
      "levels/three.html": level("three", "#0000ff", 80, "../four.html"),
      "four.html": `<template>
        <style>body { margin: 0 } #sq { position: absolute; top: 0; left: 120px; width: 20px; height: 20px; }</style>
        <div id="root" style="position:relative;width:320px;height:20px" data-composition-id="four" data-width="320" data-height="20" data-duration="0.6">
          <div id="sq"></div>
        </div>
        <script>document.getElementById("sq").style.background = "#ffff00";</script>
      </template>`,
    });
    result = await render([project.dir, "--format", "png-sequence", "--output", project.path("out")]);
  });
  afterAll(() => project?.remove());

  it("renders four levels, each starting 0.2 s after its parent, the last from a <template> file", async () => {
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    // At 0.1 s only the top level shows; at 0.7 s all four (rows at y = 0, 30, 60, 90).
    const early = await decodeFrame(project.path("out/frame_000003.png"));
    const late = await decodeFrame(project.path("out/frame_000021.png"));
    expect(boxX(early, 5, hex("#ff0000"))).toBe(0);
    expect(boxX(early, 35, hex("#00ff00"))).toBeUndefined();
    expect(boxX(late, 35, hex("#00ff00"))).toBe(40);
    expect(boxX(late, 65, hex("#0000ff"))).toBe(80);
    expect(boxX(late, 95, hex("#ffff00"))).toBe(120);
  });
});

describe("transparency through instances", () => {
  let project: TempProject;

  beforeAll(async () => {
    project = await createProject({
      "index.html": `<html><body style="margin:0"><div style="position:relative;width:320px;height:180px" data-composition-id="t" data-width="320" data-height="180" data-duration="0.2">
        <div style="position:absolute;left:100px;top:50px" data-composition-id="i" data-composition-src="inner.html"></div></div></body></html>`,
      "inner.html": `<html><body style="margin:0"><div style="position:relative;width:100px;height:100px" data-composition-id="inner" data-width="100" data-height="100" data-duration="0.2">
        <div style="position:absolute;left:10px;top:10px;width:20px;height:20px;background:#00ff00"></div></div></body></html>`,
    });
  });
  afterAll(() => project?.remove());

  it("leaves the instance's empty area transparent and its content opaque", async () => {
    const result = await render([project.dir, "--format", "png-sequence", "--output", project.path("out")]);
    expect(result.code).toBe(0);
    const frame = await decodeFrame(project.path("out/frame_000000.png"));
    expect(pixel(frame, 5, 5)[3]).toBe(0);
    expect(pixel(frame, 150, 120)[3]).toBe(0);
    expect(pixel(frame, 115, 65)).toEqual([0, 255, 0, 255]);
  });
});

describe("refusals", () => {
  let project: TempProject;

  beforeAll(async () => {
    const stage = (id: string, inner: string) =>
      `<html><body><div data-composition-id="${id}" data-width="320" data-height="180" data-duration="0.5">${inner}</div></body></html>`;
    project = await createProject({
      "loop-a.html": stage("a", `<div data-composition-id="to-b" data-composition-src="loop-b.html"></div>`),
      "loop-b.html": stage("b", `<div data-composition-id="to-a" data-composition-src="loop-a.html"></div>`),
      "missing.html": stage("m", `<div data-composition-id="ghost" data-composition-src="parts/ghost.html"></div>`),
    });
  });
  afterAll(() => project?.remove());

  it("refuses a cycle, naming the chain of files", async () => {
    const result = await render([project.path("loop-a.html"), "--output", project.path("loop.mp4")]);
    expect(result.code).toBe(1);
    expect(lines(result.stderr)).toEqual([
      'error: [sub-composition-cycle] host "to-a" embeds "loop-a.html", which embeds itself: loop-a.html -> loop-b.html -> loop-a.html (loop-b.html:1:97)',
    ]);
    expect(existsSync(project.path("loop.mp4"))).toBe(false);
  });

  it("refuses a missing file, naming the host and the path", async () => {
    const result = await render([project.path("missing.html"), "--output", project.path("missing.mp4")]);
    expect(result.code).toBe(1);
    expect(lines(result.stderr)).toEqual([
      'error: [sub-composition-missing] host "ghost" embeds "parts/ghost.html", which does not exist (parts/ghost.html) (missing.html:1:97)',
    ]);
    expect(existsSync(project.path("missing.mp4"))).toBe(false);
  });
});
