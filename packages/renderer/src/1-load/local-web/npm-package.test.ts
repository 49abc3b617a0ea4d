import { describe, expect, it } from "vitest";
import { lookupDirs } from "./npm-package.js";

describe("lookupDirs", () => {
  it("searches the project alone, or with parents every folder above it as Node does", () => {
    expect(lookupDirs({ root: "/srv/projects/a", parents: false })).toEqual(["/srv/projects/a"]);
    expect(lookupDirs({ root: "/srv/projects/a", parents: true })).toEqual(["/srv/projects/a", "/srv/projects", "/srv", "/"]);
  });
});
