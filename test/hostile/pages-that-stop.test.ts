/**
 * Pages that stop answering, crash, or leave the composition: every render ends within the ready
 * timeout plus a bounded grace, with one line naming where it was and why, its own error code,
 * and nothing left behind (no browser, no ffmpeg, no temporary file, no partial output).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { capturing, isolatedRender, renderersOf, type IsolatedRun } from "../support/api-run.js";
import { limited, RENDER_HOOK_TIMEOUT_MS } from "../support/cli.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";

const READY_TIMEOUT_MS = 1500;
// Filling the renderer's 1 GiB heap until it crashes takes seconds on a busy 2-core machine: under
// the deadline above the page would be called hung before it crashed.
const OOM_READY_TIMEOUT_MS = 10_000;
/** The ready timeout, the hang probe's grace, and room for a busy machine. */
const ENDS_WITHIN_MS = READY_TIMEOUT_MS + 20_000;

/** Runs `script` from the frame at 0.2 s (frame 6 at 30 fps) on, through the virtual clock. */
const atFrameSix = (script: string) => `<script>setTimeout(() => { ${script} }, 200);</script>`;

const compositions: Record<string, string> = {
  "spin-at-load": compositionHtml({ id: "spin-at-load", duration: 0.5, after: `<script>while (true) {}</script>` }),
  "spin-at-frame": compositionHtml({
    id: "spin-at-frame",
    duration: 1,
    after: `<script>window.__compose.onSeek((t) => { if (t >= 0.2) while (true) {} });</script>`,
  }),
  "renderer-killed": compositionHtml({
    id: "renderer-killed",
    duration: 3,
    backdrop: "#000000",
    body: "<p>slow</p>",
    css: "p { animation: spin 1s linear infinite; } @keyframes spin { to { transform: rotate(1turn); } }",
  }),
  "runs-out-of-memory": compositionHtml({
    id: "runs-out-of-memory",
    duration: 1,
    after: `<script>window.__compose.onSeek((t) => { if (t >= 0.2) { const hoard = []; for (;;) hoard.push(new Array(1e6).fill(t)); } });</script>`,
  }),
  "navigates-away": compositionHtml({ id: "navigates-away", duration: 1, after: atFrameSix(`location.href = "other.html";`) }),
  reloads: compositionHtml({ id: "reloads", duration: 1, after: atFrameSix(`location.reload();`) }),
  "writes-another-page": compositionHtml({
    id: "writes-another-page",
    duration: 1,
    after: atFrameSix(`document.open(); document.write("<p>another page</p>"); document.close();`),
  }),
  "changes-its-hash": compositionHtml({
    id: "changes-its-hash",
    duration: 0.5,
    after: atFrameSix(`location.hash = "#two"; history.pushState({}, "", "?step=2"); history.replaceState({}, "", "#three");`),
  }),
  "other.html": "<!doctype html><p>not the composition</p>",
};

let project: TempProject;
const runs = new Map<string, IsolatedRun>();

function renderOf(name: string, during?: Parameters<typeof isolatedRender>[2], readyTimeoutMs = READY_TIMEOUT_MS) {
  return async () => {
    const file = name.endsWith(".html") ? name : `${name}/index.html`;
    runs.set(
      name,
      await isolatedRender(
        project.path("runs", name),
        { composition: project.path(file), output: "video.mp4", options: { workers: 1 }, readyTimeoutMs },
        during,
      ),
    );
  };
}

beforeAll(async () => {
  const files: Record<string, string> = {};
  for (const [name, html] of Object.entries(compositions)) files[name.endsWith(".html") ? `navigates-away/${name}` : `${name}/index.html`] = html;
  project = await createProject(files);
  await limited(3, [
    renderOf("spin-at-load"),
    renderOf("spin-at-frame"),
    renderOf("renderer-killed", async (run) => {
      await capturing(run);
      for (const renderer of renderersOf(run)) process.kill(renderer.pid, "SIGKILL");
    }),
    renderOf("runs-out-of-memory", undefined, OOM_READY_TIMEOUT_MS),
    renderOf("navigates-away"),
    renderOf("reloads"),
    renderOf("writes-another-page"),
    renderOf("changes-its-hash"),
  ]);
}, RENDER_HOOK_TIMEOUT_MS);

afterAll(() => project?.remove());

/** The promise every failure keeps: it ended by itself, soon, with one code, and left nothing. */
function expectCleanFailure(name: string, code: string): string {
  const run = runs.get(name)!;
  expect(run.timedOut, `${name} did not end by itself`).toBe(false);
  expect(run.ms, `${name} took too long`).toBeLessThan(ENDS_WITHIN_MS);
  expect(run.error?.code, `${name}: ${run.error?.message}`).toBe(code);
  expect(run.events.at(-1)).toMatchObject({ type: "failed", code });
  expect(run.error!.message).not.toContain("\n");
  expect(run.leftovers, `${name}: processes left running`).toEqual([]);
  expect(run.temporary, `${name}: left in TMPDIR`).toEqual([]);
  expect(run.besideOutput, `${name}: left beside the output`).toEqual([]);
  return run.error!.message;
}

describe("a page that stops answering (readyTimeoutMs 1500)", () => {
  it("a script that never returns while the page loads: page-hung, while loading", () => {
    expect(expectCleanFailure("spin-at-load", "page-hung")).toMatch(/stopped answering while loading/);
  });

  it("a script that never returns from the frame at 0.2 s: page-hung, naming frame 6", () => {
    expect(expectCleanFailure("spin-at-frame", "page-hung")).toContain("at frame 6 (0.200 s)");
  });
});

describe("a renderer process that dies", () => {
  it("killed (-9) once frames flow: page-crashed, naming the frame", () => {
    expect(expectCleanFailure("renderer-killed", "page-crashed")).toMatch(/renderer process crashed at frame \d+/);
  });

  it("a script allocating without end from 0.2 s: page-crashed at frame 6, within the renderer's heap cap", () => {
    expect(expectCleanFailure("runs-out-of-memory", "page-crashed")).toContain("crashed at frame 6 (0.200 s)");
  });
});

describe("a page that leaves the composition at 0.2 s", () => {
  it("navigating to another page: left-composition, naming frame 6 and where it went", () => {
    const message = expectCleanFailure("navigates-away", "left-composition");
    expect(message).toContain("at frame 6 (0.200 s)");
    expect(message).toContain("other.html");
  });

  it("reloading itself: left-composition, naming frame 6", () => {
    const message = expectCleanFailure("reloads", "left-composition");
    expect(message).toContain("at frame 6 (0.200 s)");
    expect(message).toContain("reloaded");
  });

  it("changing only its hash or history entry (the same document) is not leaving: the render completes", () => {
    const run = runs.get("changes-its-hash")!;
    expect(run.error).toBeUndefined();
    expect(run.events.at(-1)).toMatchObject({ type: "finished", frames: 15 });
  });

  it("replacing its document with document.open/write: left-composition, naming frame 6", () => {
    const message = expectCleanFailure("writes-another-page", "left-composition");
    expect(message).toContain("at frame 6 (0.200 s)");
    expect(message).toContain("document.open");
  });
});
