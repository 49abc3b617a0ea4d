import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UsageError } from "../usage-error.js";
import { readCompositionFile } from "./read-composition-file.js";

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "compose-read-"));
  await writeFile(join(dir, "ok.html"), "\uFEFF<p>héllo</p>");
  await writeFile(join(dir, "nul.html"), Buffer.from([0x3c, 0x70, 0x00, 0x3e]));
  await writeFile(join(dir, "latin1.html"), Buffer.from([0x3c, 0x70, 0x3e, 0xe9]));
});

afterAll(() => rm(dir, { recursive: true, force: true }));

describe("readCompositionFile", () => {
  it("reads UTF-8 text without its byte order mark", async () => {
    expect(await readCompositionFile(join(dir, "ok.html"))).toBe("<p>héllo</p>");
  });

  it.each([
    ["nul.html", "is a binary file (it contains NUL bytes), not an HTML composition"],
    ["latin1.html", "is not UTF-8 text; a composition must be an HTML file in UTF-8"],
    ["gone.html", "does not exist"],
    ["", "is a directory; only regular files inside the project are read", "[not-a-project-file] "],
  ])("refuses %j with a UsageError", async (name, message, rule = "") => {
    const file = join(dir, name);
    await expect(readCompositionFile(file)).rejects.toEqual(new UsageError(`${rule}${file} ${message}`));
  });
});
