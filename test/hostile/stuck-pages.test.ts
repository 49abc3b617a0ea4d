/**
 * A stuck page is said as it is: stuck in layout or painting (an SVG <use> bomb, no script
 * running) is not called a script that ran too long, and an onSeek wait is named only when an
 * onSeek handler's promise is what the page waits for.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lines, limited, render, RENDER_HOOK_TIMEOUT_MS, type CliResult } from "../support/cli.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";

/** Ten <use> of the level below, nine levels deep: a billion rectangles to lay out and paint. */
function useBomb(levels = 9): string {
  const defs = ['<g id="l0"><rect width="1" height="1" fill="red"/></g>'];
  for (let i = 1; i < levels; i++) defs.push(`<g id="l${i}">${Array.from({ length: 10 }, (_, j) => `<use href="#l${i - 1}" x="${j}"/>`).join("")}</g>`);
  return `<svg width="320" height="180"><defs>${defs.join("")}</defs><use href="#l${levels - 1}"/></svg>`;
}

const CASES: Record<string, string> = {
  bomb: compositionHtml({ id: "bomb", duration: 0.2, body: useBomb() }),
  spin: compositionHtml({ id: "spin", duration: 0.2, after: "<script>while (true) {}</script>" }),
  "on-seek": compositionHtml({ id: "on-seek", duration: 0.2, after: "<script>__compose.onSeek(() => new Promise(() => {}));</script>" }),
};

let project: TempProject;
const results = new Map<string, CliResult>();

beforeAll(async () => {
  project = await createProject(Object.fromEntries(Object.entries(CASES).map(([name, html]) => [`${name}/index.html`, html])));
  await limited(
    2,
    Object.keys(CASES).map((name) => async () => {
      results.set(
        name,
        await render([project.path(name), "-o", project.path(`${name}.mp4`), "--workers", "1"], {
          env: { COMPOSE_READY_TIMEOUT_MS: "2000" },
          timeoutMs: 90_000,
        }),
      );
    }),
  );
}, RENDER_HOOK_TIMEOUT_MS);

afterAll(() => project?.remove());

function errorLine(name: string): string {
  const result = results.get(name)!;
  expect(result.code, result.stderr).toBe(1);
  return lines(result.stderr).find((line) => line.startsWith("error:")) ?? "";
}

describe("stuck pages", () => {
  it("an SVG <use> bomb: page-hung in layout or painting, no script named", () => {
    expect(errorLine("bomb")).toBe(
      "error: the page stopped answering while loading: no script was running; the browser spent more than 4 s laying out or painting the page (a page too large or too deep to draw, such as SVG <use> elements that multiply)",
    );
  });

  it("an endless loop: a script ran too long", () => {
    expect(errorLine("spin")).toBe("error: the page stopped answering while loading: a script ran for more than 4 s without returning");
  });

  it("an onSeek promise that never settles is named as such", () => {
    expect(errorLine("on-seek")).toMatch(/waiting for 1 promise returned by __compose\.onSeek handlers$/);
  });
});
