import { describe, expect, it } from "vitest";
import { z } from "zod";
import { parsePackageJson } from "./package-problem.js";

const schema = z.looseObject({ version: z.string({ error: 'must be a version such as "1.2.3"' }) }, { error: "must be a JSON object" });

describe("parsePackageJson", () => {
  it("gives the value of a file of the shape asked for", () => {
    expect(parsePackageJson('{"version": "1.2.3", "name": "x"}', schema)).toEqual({ value: { version: "1.2.3", name: "x" } });
  });

  it("places a syntax error at its line and column", () => {
    const result = parsePackageJson('{\n  "version": "1.2.3",\n  name: "x"\n}', schema);
    expect(result).toMatchObject({ line: 3, column: 3 });
    expect((result as { problem: string }).problem).toMatch(/^is not valid JSON: \S/);
  });

  it.each([
    ['{"version": 5}', 'is not what compose reads: "version" must be a version such as "1.2.3" (got 5)'],
    ["{}", 'is not what compose reads: "version" must be a version such as "1.2.3" (got nothing)'],
    ["[]", "is not what compose reads: the file must be a JSON object (got an array)"],
  ])("names what is wrong with %s", (text, problem) => {
    expect(parsePackageJson(text, schema)).toEqual({ problem });
  });
});
