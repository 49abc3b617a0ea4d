/// <reference lib="dom" />
/**
 * compose preview of a folder without index.html, as docs/preview.md says: the compositions one
 * level down are listed, each tab keeps its own choice, and the copied command runs as shown.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { openPreview, type PreviewSession } from "../support/preview-page.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";

const scene = (id: string) =>
  compositionHtml({ id, duration: 0.5, body: `<div id="${id}-clip" data-start="0" data-duration="0.5" data-track-index="0"></div>` });

let project: TempProject;
let preview: PreviewSession;

beforeAll(async () => {
  project = await createProject(
    { "scenes/intro.html": scene("intro"), "outro.html": scene("outro"), "deep/er/hidden.html": scene("hidden"), "notes.html": "<p>no composition</p>" },
    { prefix: "compose-preview-folders-" },
  );
  preview = await openPreview(".", { cwd: project.dir });
}, 120_000);

afterAll(async () => {
  await preview?.close();
  await project?.remove();
});

const shownComposition = (page = preview.page) => page.$eval("#composition", (frame: HTMLIFrameElement) => new URL(frame.src).pathname);

describe("compose preview of a folder without index.html", () => {
  it("lists the compositions of the folder and one level down", async () => {
    expect(await preview.page.isVisible("#composition-picker")).toBe(true);
    expect(await preview.page.$$eval("#composition-list option", (options) => options.map((option) => option.textContent))).toEqual([
      "outro.html",
      "scenes/intro.html",
    ]);
  });

  it("copies a command that runs as shown", async () => {
    const command = (await preview.page.textContent("#render-command"))!;
    expect(command).toBe("compose render outro.html");
    const [, ...args] = command.split(" ");
    const result = await runCli([...args, "--quality", "draft", "--workers", "1"], { cwd: project.dir, timeoutMs: 120_000 });
    expect(result.stderr).not.toMatch(/error/);
    expect(result.code).toBe(0);
    expect(existsSync(join(project.dir, "renders", "outro.mp4"))).toBe(true);
  }, 150_000);

  it("keeps each tab's choice: a pick in one tab leaves the other as it was, and survives a reload", async () => {
    const other = await preview.context.newPage();
    await other.goto(preview.url);
    await other.waitForFunction(() => document.getElementById("stage")!.dataset.shownFrame === "0");
    await preview.page.selectOption("#composition-list", "scenes/intro.html");
    await preview.page.waitForFunction(() => document.querySelector("#composition")?.getAttribute("src")?.startsWith("/scenes/intro.html"));
    expect(await preview.page.textContent("#render-command")).toBe("compose render scenes/intro.html");
    await preview.page.reload();
    await preview.settled(0);
    expect(await shownComposition()).toBe("/scenes/intro.html");
    expect(await preview.page.inputValue("#composition-list")).toBe("scenes/intro.html");
    await other.reload();
    await other.waitForFunction(() => document.getElementById("stage")!.dataset.shownFrame === "0");
    expect(await shownComposition(other)).toBe("/outro.html");
    await other.close();
  }, 60_000);
});
