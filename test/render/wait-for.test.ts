/**
 * `__compose.waitFor(promise, label)`: the first frame waits for data the page fetches at load,
 * a seek waits for work handed over during it, a promise that never settles fails the render
 * within the ready timeout naming its label, and a rejected one fails it with its message.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { limited, render, type CliResult, RENDER_HOOK_TIMEOUT_MS } from "../support/cli.js";
import { decodeAllFrames, hex, isColour } from "../support/media.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";

const page = (id: string, script: string) =>
  compositionHtml({
    id,
    duration: 0.2,
    backdrop: "#000000",
    css: `#bar { position: absolute; left: 0; top: 0; width: 320px; height: 180px; }`,
    body: `<div id="bar"></div>`,
    after: `<script>${script}</script>`,
  });

const FILES = {
  "data.json": JSON.stringify({ colour: "#00ff00" }),
  // The data arrives after three requests in a row: without waitFor, frame 0 would be black.
  "load.html": page(
    "load",
    `
    const fetchJson = (url) => fetch(url).then((r) => r.json());
    const data = fetchJson("data.json").then(() => fetchJson("data.json")).then(() => fetchJson("data.json"));
    __compose.waitFor(data.then((d) => { document.getElementById("bar").style.background = d.colour; }), "chart data");`,
  ),
  "seek.html": page(
    "seek",
    `
    __compose.onSeek((t) => {
      if (t < 0.1) return;
      __compose.waitFor(fetch("data.json").then((r) => r.json()).then((d) => { document.getElementById("bar").style.background = d.colour; }), "late data");
    });`,
  ),
  "never.html": page("never", `__compose.waitFor(new Promise(() => {}), "the slow API");`),
  "rejects.html": page("rejects", `__compose.waitFor(Promise.reject(new Error("HTTP 503 from the data service")), "chart data");`),
};

let project: TempProject;
const results = new Map<string, CliResult>();

beforeAll(async () => {
  project = await createProject(FILES);
  await limited(
    2,
    ["load", "seek", "never", "rejects"].map((name) => async () => {
      results.set(
        name,
        await render([project.path(`${name}.html`), "--format", "png-sequence", "--output", project.path(name)], { env: { COMPOSE_READY_TIMEOUT_MS: "3000" } }),
      );
    }),
  );
}, RENDER_HOOK_TIMEOUT_MS);
afterAll(() => project?.remove());

async function colours(name: string): Promise<string[]> {
  const result = results.get(name)!;
  expect(result.code, result.stderr).toBe(0);
  const frames = await decodeAllFrames(project.path(name, "frame_%06d.png"));
  return frames.map((frame) => (isColour(frame, 160, 90, hex("#00ff00")) ? "green" : isColour(frame, 160, 90, hex("#000000")) ? "black" : "?"));
}

describe("__compose.waitFor", () => {
  it("holds the first frame until data fetched at load has arrived", async () => {
    expect(await colours("load")).toEqual(Array(6).fill("green"));
  });

  it("holds a frame until the work handed over during its seek has settled", async () => {
    expect(await colours("seek")).toEqual(["black", "black", "black", "green", "green", "green"]);
  });

  it("names a promise that never settles when the ready timeout ends the render", () => {
    const result = results.get("never")!;
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/within 3 s: waiting for __compose\.waitFor\("the slow API"\)/);
  });

  it("fails the render with a rejected promise's message", () => {
    const result = results.get("rejects")!;
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/__compose\.waitFor\("chart data"\) rejected: HTTP 503 from the data service/);
  });
});
