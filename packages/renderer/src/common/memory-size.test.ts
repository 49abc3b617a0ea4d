import { describe, expect, it } from "vitest";
import { formatMemorySize, parseMemorySize } from "./memory-size.js";

describe("memory sizes", () => {
  it.each([
    ["2G", 2 * 1024 ** 3],
    ["1.5G", 1.5 * 1024 ** 3],
    ["512M", 512 * 1024 ** 2],
    ["512MiB", 512 * 1024 ** 2],
    ["512mb", 512 * 1024 ** 2],
    [" 64 K ", 64 * 1024],
  ])("%s is %d bytes", (text, bytes) => {
    expect(parseMemorySize(text)).toBe(bytes);
  });

  it.each(["2048", "G", "2 GB of memory", "-1G", ""])("%j is not a size", (text) => {
    expect(parseMemorySize(text)).toBeUndefined();
  });

  it("shows a size in the largest unit it fills", () => {
    expect([2 * 1024 ** 3, 1.5 * 1024 ** 3, 512 * 1024 ** 2, 1.01 * 1024 ** 3].map(formatMemorySize)).toEqual(["2G", "1.5G", "512M", "1.01G"]);
  });
});
