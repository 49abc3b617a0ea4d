/**
 * The audio a chunked render mixes once for the whole composition (planChunks, from its plan): volumes
 * that no script moves after load are learnt from two seeks, not one per frame; volumes that a
 * timeline or a timer moves are learnt by playing every frame. Either way the audio is the audio
 * of a single render, byte for byte.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { planChunks, render } from "@compose/renderer";
import { validateRenderOptions } from "@compose/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RENDER_HOOK_TIMEOUT_MS } from "../support/cli.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";
import { generateMedia } from "../support/test-media.js";

const FRAMES = 30;
const tone = (attributes = "") => `<audio id="tone" src="media/tone.wav" data-start="0" ${attributes}></audio>`;

const COMPOSITIONS = {
  /** A fixed data-volume, and a volume a script sets while the page loads. */
  steady: compositionHtml({
    id: "steady",
    duration: FRAMES / 30,
    body: `${tone('data-volume="0.5"')}<audio id="other" src="media/tone.wav" data-start="0.5"></audio>`,
    after: `<script>document.getElementById("other").volume = 0.3;</script>`,
  }),
  /** A registered GSAP timeline fades the tone out from 0.2 s to 0.8 s. */
  timeline: compositionHtml({
    id: "timeline",
    duration: FRAMES / 30,
    head: `<script src="gsap.min.js"></script>`,
    body: tone(),
    after: `<script>
      const tl = gsap.timeline({ paused: true });
      tl.to(document.getElementById("tone"), { volume: 0, duration: 0.6, ease: "none" }, 0.2);
      window.__timelines.timeline = tl;
    </script>`,
  }),
  /** A timer halves the volume at 0.5 s. */
  timer: compositionHtml({
    id: "timer",
    duration: FRAMES / 30,
    body: tone(),
    after: `<script>setTimeout(() => { document.getElementById("tone").volume = 0.5; }, 500);</script>`,
  }),
};
type Name = keyof typeof COMPOSITIONS;

const options = (() => {
  const result = validateRenderOptions({ format: "png-sequence" });
  if (!result.ok) throw new Error(JSON.stringify(result.problem));
  return result.options;
})();

let project: TempProject;
const played = new Map<Name, number>();

beforeAll(async () => {
  project = await createProject(Object.fromEntries(Object.entries(COMPOSITIONS).map(([name, html]) => [`${name}.html`, html])), { gsap: true });
  await generateMedia(project.dir, ["tone"]);
  for (const name of Object.keys(COMPOSITIONS) as Name[]) {
    const composition = project.path(`${name}.html`);
    const { plan, playedFrames } = await planChunks({
      composition,
      options,
      chunkSize: FRAMES,
      root: project.dir,
      workDir: `${name}-plan`,
      output: `${name}-chunked`,
    });
    played.set(name, playedFrames);
    expect(plan.audio?.output).toBe(join(`${name}-plan`, "audio.aac"));
    await render({ composition, output: project.path(`${name}-render`), options });
  }
}, RENDER_HOOK_TIMEOUT_MS);
afterAll(() => project?.remove());

async function sameAudio(name: Name): Promise<boolean> {
  const [mixed, rendered] = await Promise.all([readFile(project.path(`${name}-plan/audio.aac`)), readFile(join(project.path(`${name}-render`), "audio.aac"))]);
  return mixed.equals(rendered);
}

describe("the audio mixed for a whole composition", () => {
  it("learns volumes that no script moves from the first and last frames, and gives a single render's audio", async () => {
    expect(played.get("steady")).toBe(2);
    expect(await sameAudio("steady")).toBe(true);
  });

  it.each(["timeline", "timer"] as const)("plays every frame when a %s moves a volume, and gives a single render's audio", async (name) => {
    expect(played.get(name)).toBe(2 + FRAMES);
    expect(await sameAudio(name)).toBe(true);
  });
});
