import { describe, expect, it } from "vitest";
import { parseBootConfig } from "./server.js";
import { shellWord } from "./project-state.js";

describe("parseBootConfig", () => {
  it("reads the variables of a config", () => {
    expect(parseBootConfig('{"variables":{"a":1}}')).toEqual({ variables: { a: 1 } });
  });
  it.each([null, "", "not json", "[]", '{"variables":[1]}', '{"variables":null}', "{}"])("gives {} for %j", (text) => {
    expect(parseBootConfig(text)).toEqual({});
  });
});

describe("shellWord", () => {
  it.each([
    ["examples/hello", "examples/hello"],
    ["my project", "'my project'"],
    ["it's", "'it'\\''s'"],
    ["/tmp/a-b_c.d", "/tmp/a-b_c.d"],
  ])("%s -> %s", (word, expected) => {
    expect(shellWord(word)).toBe(expected);
  });
});
