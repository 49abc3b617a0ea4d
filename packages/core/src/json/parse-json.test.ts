import { describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH, parseJson } from "./parse-json.js";

function valueOf(text: string): unknown {
  const result = parseJson(text);
  if (!result.ok) throw new Error(`unexpected failure: ${result.error.message}`);
  return result.value;
}

describe("parseJson", () => {
  it.each([
    ["null", null],
    [" true ", true],
    ["-1.5e2", -150],
    ['"a\\n\\u0041\\"\\/"', 'a\nA"/'],
    ['[1, {"a": [], "b": {}}]', [1, { a: [], b: {} }]],
    ['{"a": 1, "a": 2}', { a: 2 }],
  ])("parses %s like JSON.parse", (text, expected) => {
    expect(valueOf(text)).toEqual(expected);
    expect(valueOf(text)).toEqual(JSON.parse(text));
  });

  it("keeps __proto__ as an own property instead of changing the prototype", () => {
    const value = valueOf('{"__proto__": {"polluted": true}}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(["__proto__"]);
  });

  it.each([
    ["", 0, "expected a value but found the end of the text"],
    ["[1,]", 3, "expected a value but found ']'"],
    ['{"a" 1}', 5, "expected ':' after a property name but found '1'"],
    ["{'a': 1}", 1, "expected a property name in double quotes but found '''"],
    ["[1 2]", 3, "expected ',' or ']' after an array element but found '2'"],
    ['["abc', 1, "unterminated string"],
    ['"a\\x"', 2, "invalid escape \\x inside a string"],
    ["[1] x", 4, "unexpected 'x' after the end of the value"],
    ["01", 1, "unexpected '1' after the end of the value"],
    ["-", 0, "invalid number starting with '-'"],
    ['"a\tb"', 2, "control character inside a string (escape it, e.g. \\n)"],
  ])("reports %j at offset %i", (text, offset, message) => {
    expect(parseJson(text)).toEqual({ ok: false, error: { offset, message } });
  });

  it("records where each array and object starts", () => {
    const result = parseJson('[ {"a": 1},\n  {"b": [2]} ]');
    if (!result.ok) throw new Error("parse failed");
    const [first, second] = result.value as Array<{ b?: unknown }>;
    expect(result.offsets.get(result.value as object)).toBe(0);
    expect(result.offsets.get(first!)).toBe(2);
    expect(result.offsets.get(second!)).toBe(14);
    expect(result.offsets.get(second!.b as object)).toBe(20);
  });

  it("refuses nesting beyond the depth limit instead of overflowing the stack", () => {
    const deep = "[".repeat(100_000);
    const result = parseJson(deep);
    expect(result).toEqual({
      ok: false,
      error: { offset: MAX_JSON_DEPTH, message: `nested deeper than ${MAX_JSON_DEPTH} levels`, tooDeep: true },
    });
    expect(valueOf("[".repeat(MAX_JSON_DEPTH) + "]".repeat(MAX_JSON_DEPTH))).toBeInstanceOf(Array);
  });

  it("takes a lower limit of the caller's", () => {
    expect(parseJson('{"a":{"b":{}}}', 2)).toEqual({ ok: false, error: { offset: 10, message: "nested deeper than 2 levels", tooDeep: true } });
    expect(parseJson('{"a":{"b":1}}', 2).ok).toBe(true);
  });
});
