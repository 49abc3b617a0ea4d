/**
 * The first failure is the one reported: a script or stylesheet that fails to load is named
 * before the page errors that follow from it (`gsap is not defined`), in the message and in the
 * failed event's list of problems; with --allow-missing-assets each failed load is a warning.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RenderFailedEvent } from "@compose/renderer";
import { isolatedRender } from "../support/api-run.js";
import { lines, limited, render, type CliResult, RENDER_HOOK_TIMEOUT_MS } from "../support/cli.js";
import { createProject, type TempProject } from "../support/project.js";

function usesGsap(src: string): string {
  return `<!doctype html><html><head>
<script src="${src}"></script>
</head><body>
<div data-composition-id="lib" data-width="320" data-height="180" data-duration="0.2"></div>
<script>
  window.__timelines = { lib: gsap.timeline({ paused: true }) };
</script></body></html>`;
}

const GSAP_NOT_DEFINED = "page script error: Uncaught ReferenceError: gsap is not defined (%s:6:31)";
const notDefined = (file: string) => GSAP_NOT_DEFINED.replace("%s", file);

let project: TempProject;
const runs = new Map<string, CliResult>();
beforeAll(async () => {
  project = await createProject({
    "local.html": usesGsap("lib/gsap.min.js"),
    "cdn.html": usesGsap("https://cdn.example.com/gsap@3.15.0/gsap.min.js"),
  });
  await limited(2, [
    async () => runs.set("local", await render([project.path("local.html"), "--output", project.path("local.mp4")])),
    async () => runs.set("allowed", await render([project.path("local.html"), "--allow-missing-assets", "--output", project.path("allowed.mp4")])),
    async () => runs.set("offline", await render([project.path("cdn.html"), "--network", "none", "--output", project.path("offline.mp4")])),
  ]);
}, RENDER_HOOK_TIMEOUT_MS);
afterAll(() => project?.remove());

describe("a library that fails to load", () => {
  it("named in the markup, is refused before the page runs, as lint finds it", () => {
    const result = runs.get("local")!;
    expect(result.code).toBe(1);
    expect(lines(result.stderr)).toEqual([
      'error: [missing-asset] <script> src "lib/gsap.min.js": the file does not exist (local.html:2:9); fix the reference, or render with --allow-missing-assets to go ahead without it',
    ]);
  });

  it("with --allow-missing-assets: a warning naming it, then the page error that followed", () => {
    const result = runs.get("allowed")!;
    expect(result.code).toBe(1);
    expect(lines(result.stderr)).toEqual([
      "warning: [missing-asset] script lib/gsap.min.js failed to load (HTTP 404, requested by local.html:2)",
      `error: script lib/gsap.min.js failed to load (HTTP 404, requested by local.html:2); later page errors may follow from it, the first: ${notDefined("local.html")}`,
    ]);
  });

  it("refused by --network none: the policy's warning, then the error naming the script first", () => {
    const result = runs.get("offline")!;
    expect(result.code).toBe(1);
    const said = lines(result.stderr);
    expect(said[0]).toMatch(/^warning: \[network-refused\] refused https:\/\/cdn\.example\.com\/gsap@3\.15\.0\/gsap\.min\.js: /);
    expect(said[1]).toBe(
      `error: script https://cdn.example.com/gsap@3.15.0/gsap.min.js failed to load (refused by the network policy, requested by cdn.html:2); later page errors may follow from it, the first: ${notDefined("cdn.html")}`,
    );
    expect(said).toHaveLength(2);
  });

  it("render()'s failed event lists the problems with their codes, the cause first", async () => {
    const run = await isolatedRender(project.path("api"), {
      composition: project.path("local.html"),
      output: "api.mp4",
      options: { allowMissingAssets: true },
    });
    const failed = run.events.find((event): event is RenderFailedEvent => event.type === "failed")!;
    expect(failed.code).toBe("page-error");
    expect(failed.problems).toEqual([
      { code: "missing-asset", message: "script lib/gsap.min.js failed to load (HTTP 404, requested by local.html:2)" },
      { code: "page-error", message: notDefined("local.html") },
    ]);
  });
});
