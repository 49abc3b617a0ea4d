import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UsageError } from "../usage-error.js";
import { resolveCompositionEntry } from "./resolve-composition-entry.js";

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "compose-entry-"));
  await mkdir(join(dir, "promo"));
  await writeFile(join(dir, "promo", "index.html"), "");
  await writeFile(join(dir, "promo", "card.html"), "");
  await mkdir(join(dir, "empty"));
  await mkdir(join(dir, "piped"));
  execFileSync("mkfifo", [join(dir, "piped", "index.html"), join(dir, "piped", "card.html")]);
});

afterAll(() => rm(dir, { recursive: true, force: true }));

describe("resolveCompositionEntry", () => {
  it("takes a directory's index.html and names it after the directory", async () => {
    expect(await resolveCompositionEntry(join(dir, "promo"))).toEqual({ file: join(dir, "promo", "index.html"), name: "promo" });
  });

  it("names an index.html file after its directory", async () => {
    expect(await resolveCompositionEntry(join(dir, "promo", "index.html"))).toEqual({ file: join(dir, "promo", "index.html"), name: "promo" });
  });

  it("names another HTML file after itself", async () => {
    expect(await resolveCompositionEntry(join(dir, "promo", "card.html"))).toEqual({ file: join(dir, "promo", "card.html"), name: "card" });
  });

  it.each([
    ["missing", "does not exist; give a composition directory (with an index.html) or an HTML file"],
    ["empty", "is a directory without an index.html; give a composition directory (with an index.html) or an HTML file"],
  ])("refuses a %s path with a UsageError", async (name, message) => {
    const path = join(dir, name);
    await expect(resolveCompositionEntry(path)).rejects.toThrow(new UsageError(`${path} ${message}`));
  });

  it.each([
    ["a directory whose index.html", "piped", "piped/index.html"],
    ["an entry file that", "piped/card.html", "piped/card.html"],
  ])("refuses %s is a FIFO by the project-file rule, at once", async (_, arg, shown) => {
    const path = join(dir, arg);
    await expect(resolveCompositionEntry(path)).rejects.toThrow(
      new UsageError(`[not-a-project-file] ${join(dir, shown)} is a FIFO (named pipe); only regular files inside the project are read`),
    );
  });
});
