import { describe, expect, it } from "vitest";
import { byteRange } from "./send-file.js";

describe("byteRange", () => {
  it("reads one range: from, from-to, the last n bytes; an end past the file ends at its last byte", () => {
    expect(byteRange("bytes=0-", 100)).toEqual([0, 99]);
    expect(byteRange("bytes=10-19", 100)).toEqual([10, 19]);
    expect(byteRange("bytes=90-500", 100)).toEqual([90, 99]);
    expect(byteRange("bytes=-10", 100)).toEqual([90, 99]);
    expect(byteRange("bytes=-500", 100)).toEqual([0, 99]);
  });

  it("is unsatisfiable past the end or of an empty file", () => {
    expect(byteRange("bytes=100-", 100)).toBe("unsatisfiable");
    expect(byteRange("bytes=0-", 0)).toBe("unsatisfiable");
    expect(byteRange("bytes=-0", 100)).toBe("unsatisfiable");
  });

  it("sends the whole file for no range, several ranges, another unit or a malformed one", () => {
    for (const header of [undefined, "bytes=0-1,5-6", "items=0-1", "bytes=-", "bytes=20-10", "bytes=a-b"]) expect(byteRange(header, 100)).toBeUndefined();
    // Reversed is malformed even when it starts past the end.
    expect(byteRange("bytes=20-10", 10)).toBeUndefined();
  });
});
