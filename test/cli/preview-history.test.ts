/// <reference lib="dom" />
/**
 * compose preview shows a composition that builds its state frame by frame as the render makes
 * it, whatever the order of scrubbing: forward, back, and jumps. The lanes' positions are those
 * of a page played from 0 (test/support/history-composition.ts), which the render also checks.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHistoryProject, LANES } from "../support/history-composition.js";
import { openPreview, type PreviewSession } from "../support/preview-page.js";
import type { TempProject } from "../support/project.js";

/** The lanes a preview can read from the composition's DOM: rAF from first callback, integration, interval, counter. */
const DOM_LANES = [0, 1, 2, 3];

let project: TempProject;
let preview: PreviewSession;

beforeAll(async () => {
  project = await createHistoryProject();
  preview = await openPreview(project.dir);
});

afterAll(async () => {
  await preview?.close();
  await project?.remove();
});

async function laneXs(): Promise<number[]> {
  return preview.inComposition<number[]>(`(doc) => ${JSON.stringify(DOM_LANES)}.map((i) => doc.getElementById("lane" + i).getBoundingClientRect().left)`);
}

describe("compose preview of a composition with history", () => {
  it.each([12, 3, 15, 16, 0, 9])("shows frame %i as the render does, after the frames scrubbed before it", async (frame) => {
    await preview.scrubTo(frame);
    const expected = DOM_LANES.map((i) => LANES[i]!.expectedX(frame));
    const actual = await laneXs();
    actual.forEach((x, n) => expect(Math.abs(x - expected[n]!), `${LANES[DOM_LANES[n]!]!.name}: x ${x}, expected ${expected[n]}`).toBeLessThan(0.01));
  });
});
