/**
 * The error codes a page documents are the ones a failed event can carry: the table of
 * docs/untrusted-compositions.md lists exactly the schema's codes.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { RENDER_ERROR_CODES } from "@compose/core";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/project.js";

/** The codes in the first column of the table under `## Error codes`. */
function documentedCodes(): string[] {
  const markdown = readFileSync(join(REPO_ROOT, "docs/untrusted-compositions.md"), "utf8");
  const section = markdown.split(/^## Error codes/m)[1]?.split(/^## /m)[0] ?? "";
  return [...section.matchAll(/^\| ([^|]+) \|/gm)].flatMap((row) => [...row[1]!.matchAll(/`([a-z-]+)`/g)].map((code) => code[1]!));
}

describe("error codes", () => {
  it("are documented, each of them and no other", () => {
    expect(documentedCodes().sort()).toEqual([...RENDER_ERROR_CODES].sort());
  });
});
