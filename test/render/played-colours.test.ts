/**
 * What a viewer sees: eight flat colours rendered to every format a browser plays (mp4 at every
 * preset and with --gpu, webm opaque and transparent), each file played in Debian's chromium and
 * firefox-esr, its frame at 0.5 s drawn to a canvas and read back, shows every colour within 3 of
 * what the page drew; ffmpeg, reading the file's tags, decodes it within 1.
 */
import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PLAYERS, playedColours, type PlayedColours, type PlayerName } from "../support/browser-playback.js";
import { limited, render, RENDER_HOOK_TIMEOUT_MS } from "../support/cli.js";
import { colourDistance, decodeFrame, hex, pixel } from "../support/media.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";

const COLOURS = ["#111111", "#808080", "#ffffff", "#ff0000", "#00ff00", "#0000ff", "#e0ac69", "#3a7bd5"] as const;
/** A 4x2 grid over the 320x180 frame; each patch is sampled at its centre. */
const CENTRES = COLOURS.map((_, i) => [(i % 4) * 80 + 40, Math.floor(i / 4) * 90 + 45] as const);

/** The patches fill their cells, or (transparent) leave a transparent margin around each. */
const grid = (inset: number) =>
  COLOURS.map(
    (colour, i) =>
      `<div style="position:absolute;left:${(i % 4) * 80 + inset}px;top:${Math.floor(i / 4) * 90 + inset}px;width:${80 - 2 * inset}px;height:${90 - 2 * inset}px;background:${colour}"></div>`,
  ).join("\n");

const FILES = {
  "opaque.html": compositionHtml({ id: "opaque", duration: 0.7, body: grid(0) }),
  "transparent.html": compositionHtml({ id: "transparent", duration: 0.7, body: grid(12) }),
};

const RENDERS = {
  "mp4 draft": { file: "opaque.html", output: "draft.mp4", args: ["--quality", "draft"] },
  "mp4 standard": { file: "opaque.html", output: "standard.mp4", args: [] },
  "mp4 high": { file: "opaque.html", output: "high.mp4", args: ["--quality", "high"] },
  // A hardware encoder where there is one; elsewhere this is the software fallback.
  "mp4 --gpu": { file: "opaque.html", output: "gpu.mp4", args: ["--gpu"] },
  webm: { file: "opaque.html", output: "opaque.webm", args: ["--format", "webm"] },
  "webm with transparency": { file: "transparent.html", output: "transparent.webm", args: ["--format", "webm"] },
} as const;
type RenderName = keyof typeof RENDERS;
const NAMES = Object.keys(RENDERS) as RenderName[];

const PLAYER_NAMES = (Object.keys(PLAYERS) as PlayerName[]).filter((player) => existsSync(PLAYERS[player]));

let project: TempProject;
const played = {} as Record<PlayerName, Map<string, PlayedColours>>;

beforeAll(async () => {
  project = await createProject(FILES, { prefix: "compose-played-colours-" });
  await limited(
    2,
    NAMES.map((name) => async () => {
      const { file, output, args } = RENDERS[name];
      const result = await render([project.path(file), "--workers", "1", ...args, "--output", project.path(output)]);
      if (result.code !== 0) throw new Error(`render ${name} failed: ${result.stderr}`);
    }),
  );
  const files = NAMES.map((name) => project.path(RENDERS[name].output));
  for (const player of PLAYER_NAMES) played[player] = await playedColours(player, files, CENTRES, 0.5);
}, RENDER_HOOK_TIMEOUT_MS);
afterAll(() => project?.remove());

function report(found: ReadonlyArray<readonly number[]>): string {
  return COLOURS.map((colour, i) => `${colour} -> (${found[i]!.join(",")})`).join(" ");
}

const worst = (found: ReadonlyArray<readonly number[]>) => Math.max(...COLOURS.map((colour, i) => colourDistance(found[i]!, hex(colour))));

describe.each(NAMES)("%s", (name) => {
  it.each(PLAYER_NAMES)("plays in %s with every colour within 3 of the page's", (player) => {
    const found = played[player].get(project.path(RENDERS[name].output))!;
    expect(worst(found), report(found)).toBeLessThanOrEqual(3);
  });

  it("decodes with ffmpeg, reading its tags, within 1", async () => {
    const file = project.path(RENDERS[name].output);
    const frame = await decodeFrame(file, 15, { asTagged: true, vp9Alpha: file.endsWith(".webm") });
    const found = CENTRES.map(([x, y]) => pixel(frame, x, y).slice(0, 3));
    expect(worst(found), report(found)).toBeLessThanOrEqual(1);
  });
});
