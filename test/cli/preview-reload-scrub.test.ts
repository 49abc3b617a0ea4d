/// <reference lib="dom" />
/**
 * A scrub while compose preview loads the composition again (its file saved) ends on the frame
 * scrubbed to: the new page is seeked there once its own first seek is done, and the stage says
 * it shows that frame only then.
 */
import { writeFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPreview, type PreviewSession } from "../support/preview-page.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";

type HoldingWindow = Window & { holdSeek?: () => Promise<void>; releaseSeek?: () => void };

/** Shows the time it was seeked to; a seek waits while the preview page holds it (holdSeek). */
function indexHtml(version: number): string {
  return compositionHtml({
    id: "clock",
    duration: 1,
    body: `<p id="time"></p><p id="version">${version}</p>`,
    after: `<script>
  __compose.onSeek((t) => {
    document.getElementById("time").textContent = t.toFixed(3);
    return parent.holdSeek?.();
  });
</script>`,
  });
}

let project: TempProject;
let preview: PreviewSession;

beforeAll(async () => {
  project = await createProject({ "index.html": indexHtml(1) }, { prefix: "compose-preview-reload-" });
  preview = await openPreview(project.dir);
});

afterAll(async () => {
  await preview?.close();
  await project?.remove();
});

describe("compose preview loading a saved composition", () => {
  it("shows the frame scrubbed to during the new page's first seek, once that seek is done", async () => {
    const { page } = preview;
    await page.evaluate(() => {
      const held = new Promise<void>((resolve) => ((window as HoldingWindow).releaseSeek = resolve));
      (window as HoldingWindow).holdSeek = () => held;
    });
    await writeFile(project.path("index.html"), indexHtml(2));
    // The new page, loading beneath the shown one, is held in its first seek: to frame 0.
    await page.waitForFunction(() => {
      const doc = document.querySelector<HTMLIFrameElement>("iframe.loading")?.contentDocument;
      return doc?.getElementById("version")?.textContent === "2" && doc.getElementById("time")?.textContent === "0.000";
    });
    await page.$eval("#scrubber", (input: HTMLInputElement) => {
      input.value = "20";
      input.dispatchEvent(new Event("input", { bubbles: true }));
    });
    await page.evaluate(() => {
      const holding = window as HoldingWindow;
      delete holding.holdSeek;
      holding.releaseSeek!();
    });
    await preview.settled(20);
    expect(await preview.inComposition<string>(`(doc) => doc.getElementById("version").textContent`)).toBe("2");
    expect(await preview.inComposition<string>(`(doc) => doc.getElementById("time").textContent`)).toBe((20 / 30).toFixed(3));
  });
});
