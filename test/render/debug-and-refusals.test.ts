/**
 * render() refuses container mode, which only the CLI can provide; COMPOSE_DEBUG adds the cause
 * behind a failure's one line.
 */
import { validateRenderOptions } from "@compose/core";
import { render as renderApi, RenderError } from "@compose/renderer";
import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lines, render } from "../support/cli.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";

let project: TempProject;

beforeAll(async () => {
  project = await createProject({ "index.html": compositionHtml({ id: "tiny", duration: 0.2, background: "#000" }) });
});
afterAll(() => project?.remove());

describe("render()", () => {
  it("refuses docker: true with a line that points at the CLI, and writes nothing", async () => {
    const result = validateRenderOptions({ docker: true });
    if (!result.ok) throw new Error(result.problem.problem);
    const failure = await renderApi({ composition: project.path("index.html"), output: project.path("out.mp4"), options: result.options }).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(RenderError);
    expect((failure as RenderError).code).toBe("invalid-composition");
    expect((failure as RenderError).message).toContain("compose render --docker");
    expect(existsSync(project.path("out.mp4"))).toBe(false);
  });
});

describe("COMPOSE_DEBUG", () => {
  it("adds the failure's cause to stderr, which otherwise holds one line", async () => {
    const args = [project.dir, "--quiet", "--output", project.path("debug.mp4")];
    const plain = await render(args, { env: { COMPOSE_FFMPEG: "/nonexistent/ffmpeg" } });
    const debug = await render(args, { env: { COMPOSE_FFMPEG: "/nonexistent/ffmpeg", COMPOSE_DEBUG: "1" } });
    expect([plain.code, debug.code]).toEqual([1, 1]);
    expect(lines(plain.stderr)).toHaveLength(1);
    expect(lines(debug.stderr).length).toBeGreaterThan(1);
    expect(debug.stderr).toMatch(/^\s+at /m);
    expect(lines(debug.stderr).at(-1)).toBe(lines(plain.stderr)[0]);
  });
});
