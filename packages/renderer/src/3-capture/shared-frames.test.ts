import { describe, expect, it } from "vitest";
import type { CompositionPage } from "../page/composition-page.js";
import type { PaintFingerprint } from "../page/paint-fingerprint.js";
import { SharedFrames } from "./shared-frames.js";

const SETTINGS = { image: "jpeg", jpegQuality: 80 } as const;

/** A page that paints `paints[frame]` at the frame it was last asked for, its capture the paint's bytes. */
function fakePage(paints: readonly (string | undefined)[]) {
  let frame = 0;
  let captures = 0;
  const image = () => {
    captures++;
    return { kind: "image" as const, data: Buffer.from(paints[frame] ?? "canvas") };
  };
  const page = {
    stats: { frames: 0, reused: 0, shared: 0, seekMs: 0, captureMs: 0, fingerprintMs: 0, replayedFrames: 0, replayMs: 0 },
    capture: async () => image(),
    captureImage: async () => image(),
    fingerprint: async (): Promise<PaintFingerprint> => (paints[frame] === undefined ? { off: "a <canvas>" } : { digest: paints[frame]! }),
  } as unknown as CompositionPage;
  return {
    page,
    at: (n: number) => ((frame = n), page),
    get captures() {
      return captures;
    },
  };
}

/** Takes every frame of a row in order, as capture does, and ends the row. */
async function renderRow(shared: SharedFrames, paints: readonly (string | undefined)[]) {
  const row = shared.row();
  const fake = fakePage(paints);
  const images: string[] = [];
  for (let frame = 0; frame < paints.length; frame++) {
    const taken = await row.take(fake.at(frame), frame, SETTINGS);
    images.push(taken.kind === "image" ? taken.data.toString() : "repeat");
    row.pass(frame);
  }
  row.end();
  return { images, captures: fake.captures, shared: fake.page.stats.shared };
}

describe("SharedFrames", () => {
  it("captures a frame every row paints alike once, and each row gets its own paint's image", async () => {
    const shared = new SharedFrames(3);
    const rows = [
      ["intro", "title A", "outro"],
      ["intro", "title B", "outro"],
      ["intro", "title C", "outro"],
    ];
    const results = [];
    for (const paints of rows) results.push(await renderRow(shared, paints));
    expect(results.map((result) => result.images)).toEqual(rows);
    expect(results.map((result) => result.captures)).toEqual([3, 1, 1]);
    expect(results.map((result) => result.shared)).toEqual([0, 2, 2]);
  });

  it("drops a frame once every row has passed it, and one that a row paints otherwise at once", async () => {
    const shared = new SharedFrames(2);
    const first = shared.row();
    const fake = fakePage(["intro", "title A"]);
    for (const frame of [0, 1]) {
      await first.take(fake.at(frame), frame, SETTINGS);
      first.pass(frame);
    }
    expect(shared.heldBytes).toBe("intro".length + "title A".length);
    const second = shared.row();
    const other = fakePage(["intro", "title B"]);
    await second.take(other.at(0), 0, SETTINGS);
    second.pass(0);
    expect(shared.heldBytes).toBe("title A".length);
    await second.take(other.at(1), 1, SETTINGS);
    expect(shared.heldBytes).toBe(0);
    second.pass(1);
    first.end();
    second.end();
    expect(shared.heldBytes).toBe(0);
  });

  it("lets a frame go when the rows that did not reach it end, or will not render", async () => {
    const shared = new SharedFrames(3);
    await renderRow(shared, ["intro"]);
    expect(shared.heldBytes).toBe("intro".length);
    shared.row().end();
    expect(shared.heldBytes).toBe("intro".length);
    shared.forgoRow();
    expect(shared.heldBytes).toBe(0);
  });

  it("captures a frame whose paint the fingerprint cannot see, in every row", async () => {
    const shared = new SharedFrames(2);
    const results = [await renderRow(shared, [undefined, "intro"]), await renderRow(shared, [undefined, "intro"])];
    expect(results.map((result) => result.captures)).toEqual([2, 1]);
  });

  it("keeps no more images than its bound holds", async () => {
    const shared = new SharedFrames(2, { maxBytes: 6 });
    await renderRow(shared, ["intro", "outro"]);
    expect(shared.heldBytes).toBe(5);
    expect((await renderRow(shared, ["intro", "outro"])).captures).toBe(1);
  });

  it("in its check, fails a row whose captured image differs from the earlier row's of the same paint", async () => {
    const shared = new SharedFrames(2, { verify: true });
    await renderRow(shared, ["intro"]);
    const row = shared.row();
    const fake = fakePage(["intro"]);
    fake.page.captureImage = async () => ({ kind: "image", data: Buffer.from("other") });
    await expect(row.take(fake.at(0), 0, SETTINGS)).rejects.toThrow("frame 0 painted as an earlier row's by its fingerprint, but its captured image differs");
  });
});
