/**
 * One history: frame n of a render is the page played from 0 through frame n, whatever the
 * number of workers. Every kind of state that builds up over time is in the composition.
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { limited, render, type CliResult, RENDER_HOOK_TIMEOUT_MS } from "../support/cli.js";
import { createHistoryProject, HISTORY_FRAMES, LANES, laneXs } from "../support/history-composition.js";
import { decodeAllFrames } from "../support/media.js";
import type { TempProject } from "../support/project.js";

const WORKERS = [1, 2, 3];
let project: TempProject;
const results = new Map<number, CliResult>();
/** Lossless mp4 (CRF 0), so decoded frames can be compared exactly whatever the chunk boundaries. */
const mp4Results = new Map<number, CliResult>();

beforeAll(async () => {
  project = await createHistoryProject();
  await limited(2, [
    ...WORKERS.map((workers) => async () => {
      results.set(workers, await render([project.dir, "--format", "png-sequence", "--workers", String(workers), "--output", project.path(`w${workers}`)]));
    }),
    ...[1, 2].map((workers) => async () => {
      mp4Results.set(workers, await render([project.dir, "--crf", "0", "--workers", String(workers), "--output", project.path(`w${workers}.mp4`)]));
    }),
  ]);
}, RENDER_HOOK_TIMEOUT_MS);
afterAll(() => project?.remove());

async function frames(workers: number): Promise<Buffer[]> {
  const result = results.get(workers)!;
  expect(result.stderr, `workers ${workers} stderr`).toBe("");
  expect(result.code, `workers ${workers} exit code`).toBe(0);
  const dir = project.path(`w${workers}`);
  const names = (await readdir(dir)).filter((name) => name.endsWith(".png")).sort();
  return Promise.all(names.map((name) => readFile(join(dir, name))));
}

describe("one history", () => {
  it("puts every lane where a page played from 0 puts it, frame by frame", async () => {
    await frames(1);
    const decoded = await decodeAllFrames(join(project.path("w1"), "frame_%06d.png"));
    expect(decoded).toHaveLength(HISTORY_FRAMES);
    const wrong: string[] = [];
    decoded.forEach((frame, n) => {
      laneXs(frame).forEach((x, i) => {
        const lane = LANES[i]!;
        const expected = lane.expectedX(n);
        if (x === undefined || Math.abs(x - expected) > lane.tolerance) wrong.push(`${lane.name} at frame ${n}: x ${x}, expected ${expected.toFixed(1)}`);
      });
    });
    expect(wrong).toEqual([]);
  });

  it("says how many frames the workers after the first replayed", () => {
    expect(results.get(1)!.stdout).not.toMatch(/Replayed/);
    expect(results.get(2)!.stdout).toMatch(/^Replayed 9 frames of history in [\d.]+ s/m);
    // Frames 0-5 for the second worker, 0-11 for the third.
    expect(results.get(3)!.stdout).toMatch(/^Replayed 18 frames of history in [\d.]+ s/m);
  });

  it.each([2, 3])("gives byte-identical frames with --workers %i and --workers 1", async (workers) => {
    const one = await frames(1);
    const many = await frames(workers);
    expect(many).toHaveLength(one.length);
    const differing = one.flatMap((bytes, n) => (many[n]!.equals(bytes) ? [] : [n]));
    expect(differing, "frames that differ from --workers 1").toEqual([]);
  });

  it("gives the same decoded mp4 frames with --workers 2 and --workers 1", async () => {
    for (const [workers, result] of mp4Results) expect(result.code, `mp4 with --workers ${workers}: ${result.stderr}`).toBe(0);
    const [one, two] = await Promise.all([decodeAllFrames(project.path("w1.mp4")), decodeAllFrames(project.path("w2.mp4"))]);
    expect(two).toHaveLength(HISTORY_FRAMES);
    expect(
      one.flatMap((frame, n) => (frame.data.equals(two[n]!.data) ? [] : [n])),
      "decoded frames that differ",
    ).toEqual([]);
  });
});
