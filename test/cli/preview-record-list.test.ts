/// <reference lib="dom" />
/** A variable whose value is a JSON list of records (examples/chart's rows) is edited as a table. */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPreview, type PreviewSession } from "../support/preview-page.js";
import { REPO_ROOT } from "../support/project.js";

let preview: PreviewSession;

beforeAll(async () => {
  preview = await openPreview(join(REPO_ROOT, "examples/chart"));
}, 120_000);

afterAll(async () => {
  await preview?.close();
});

const loadedRows = () => preview.page.$eval("#stage", (stage) => JSON.parse(JSON.parse(stage.dataset.config || "{}").variables?.rows ?? "null"));

describe("a JSON list of records", () => {
  it("shows as a table of its rows and columns", async () => {
    const table = await preview.page.$$eval("#variable-rows tr", (rows) =>
      rows.map((row) => Array.from(row.querySelectorAll("th, input"), (cell) => (cell instanceof HTMLInputElement ? cell.value : cell.textContent))),
    );
    expect(table[0]).toEqual(["label", "value", ""]);
    expect(table.slice(1)).toEqual([
      ["Jan", "120"],
      ["Feb", "180"],
      ["Mar", "150"],
      ["Apr", "240"],
      ["May", "310"],
    ]);
  });

  it("applies an edited cell, a removed row and an added one as the variable's JSON, numbers kept numbers", async () => {
    await preview.page.fill('#variable-rows input[data-row="0"][data-column="value"]', "400");
    await preview.page.click('#variable-rows button[aria-label="Remove row 5"]');
    await preview.page.click(".add-row");
    await preview.page.fill('#variable-rows input[data-row="4"][data-column="label"]', "Jun");
    await preview.page.fill('#variable-rows input[data-row="4"][data-column="value"]', "90");
    await preview.page.waitForFunction(() => JSON.parse(document.getElementById("stage")!.dataset.config || "{}").variables?.rows?.includes("Jun"));
    await preview.settled();
    expect(await loadedRows()).toEqual([
      { label: "Jan", value: 400 },
      { label: "Feb", value: 180 },
      { label: "Mar", value: 150 },
      { label: "Apr", value: 240 },
      { label: "Jun", value: 90 },
    ]);
    expect(await preview.page.textContent("#render-command")).toContain(`{\\"label\\":\\"Jan\\",\\"value\\":400}`);
  });
});
