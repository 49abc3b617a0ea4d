import { describe, expect, it } from "vitest";
import { packageName } from "./project-package.js";

describe("packageName", () => {
  it("keeps a name npm takes as it is", () => {
    expect(packageName("launch-video")).toBe("launch-video");
  });

  it("lowers the case and turns runs of other characters into one hyphen", () => {
    expect(packageName("My Launch  Video!")).toBe("my-launch-video");
  });

  it("drops the leading dots and underscores npm refuses", () => {
    expect(packageName("._draft")).toBe("draft");
  });

  it("falls back to a name when nothing of the folder's fits", () => {
    expect(packageName("???")).toBe("composition");
  });
});
