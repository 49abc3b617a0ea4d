import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { fontFileProblem } from "./font-file.js";

const files = join(dirname(createRequire(import.meta.url).resolve("@fontsource/tinos/package.json")), "files");
const WOFF2 = readFileSync(join(files, "tinos-latin-400-normal.woff2"));
const WOFF = readFileSync(join(files, "tinos-latin-400-normal.woff"));

/** A minimal TrueType file: its header and one table record, the table `length` bytes long at the end of the header. */
function ttf(length: number, declared = length): Buffer {
  const bytes = Buffer.alloc(12 + 16 + length);
  bytes.writeUInt32BE(0x00010000, 0);
  bytes.writeUInt16BE(1, 4);
  bytes.write("head", 12, "latin1");
  bytes.writeUInt32BE(28, 20);
  bytes.writeUInt32BE(declared, 24);
  return bytes;
}

describe("fontFileProblem", () => {
  it("finds nothing wrong with whole fonts, or with files that are not fonts", () => {
    expect(fontFileProblem(WOFF2, "a.woff2")).toBeUndefined();
    expect(fontFileProblem(WOFF, "a.woff")).toBeUndefined();
    expect(fontFileProblem(ttf(8), "a.ttf")).toBeUndefined();
    expect(fontFileProblem(Buffer.from("body {}"), "a.css")).toBeUndefined();
  });

  it.each([
    ["a WOFF2 cut short", WOFF2.subarray(0, 1000), "a.woff2", `is a damaged WOFF2 font: it is 1000 bytes, its header says ${WOFF2.length}`],
    ["an empty WOFF2", Buffer.alloc(0), "a.woff2", "is not a WOFF2 font (it is empty)"],
    ["a WOFF named WOFF2", WOFF, "a.woff2", "is not a WOFF2 font (its first bytes are not a font's)"],
    [
      "a WOFF with bytes added",
      Buffer.concat([WOFF, Buffer.alloc(10)]),
      "a.woff",
      `is a damaged WOFF font: it is ${WOFF.length + 10} bytes, its header says ${WOFF.length}`,
    ],
    ["a TrueType font whose table runs past its end", ttf(8, 64), "a.ttf", "is a damaged TTF font: its tables run past its end"],
  ])("names %s", (_, bytes, path, problem) => {
    expect(fontFileProblem(bytes, path)).toBe(problem);
  });
});
