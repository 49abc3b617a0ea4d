export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export interface JsonSyntaxError {
  message: string;
  /** The text is JSON, but nests deeper than the parse allows. */
  tooDeep?: boolean;
  /** Index into the parsed text where the problem was found. */
  offset: number;
}

export type JsonParseResult =
  | {
      ok: true;
      value: JsonValue;
      /** Where each array and object starts in the text, so callers can point at one entry. */
      offsets: Map<object, number>;
    }
  | { ok: false; error: JsonSyntaxError };

/** Deep enough for any real declaration list; shallow enough that recursion cannot overflow the stack. */
export const MAX_JSON_DEPTH = 256;

class SyntaxFailure {
  constructor(
    readonly message: string,
    readonly offset: number,
    readonly tooDeep = false,
  ) {}
}

/**
 * A strict JSON parser that reports where it failed. JSON.parse is not used because the position of
 * its errors differs between engines (Node 20 often gives none) and this runs in the page too.
 */
export function parseJson(text: string, maxDepth = MAX_JSON_DEPTH): JsonParseResult {
  const parser = new JsonParser(text, maxDepth);
  try {
    return { ok: true, value: parser.parseDocument(), offsets: parser.offsets };
  } catch (failure) {
    if (failure instanceof SyntaxFailure) {
      const error: JsonSyntaxError = { message: failure.message, offset: failure.offset };
      if (failure.tooDeep) error.tooDeep = true;
      return { ok: false, error };
    }
    throw failure;
  }
}

const NUMBER_PATTERN = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const ESCAPES: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

class JsonParser {
  readonly offsets = new Map<object, number>();
  private pos = 0;

  constructor(
    private readonly text: string,
    private readonly maxDepth: number,
  ) {}

  parseDocument(): JsonValue {
    this.skipWhitespace();
    const value = this.parseValue(0);
    this.skipWhitespace();
    if (this.pos < this.text.length) this.fail(`unexpected ${this.describeHere()} after the end of the value`);
    return value;
  }

  private parseValue(depth: number): JsonValue {
    const char = this.text[this.pos];
    if (char === "{") return this.parseObject(depth + 1);
    if (char === "[") return this.parseArray(depth + 1);
    if (char === '"') return this.parseString();
    if (char === "-" || (char !== undefined && char >= "0" && char <= "9")) return this.parseNumber();
    for (const [word, value] of [
      ["true", true],
      ["false", false],
      ["null", null],
    ] as const) {
      if (this.text.startsWith(word, this.pos)) {
        this.pos += word.length;
        return value;
      }
    }
    return this.fail(`expected a value but found ${this.describeHere()}`);
  }

  private parseObject(depth: number): JsonValue {
    this.checkDepth(depth);
    const object: { [key: string]: JsonValue } = {};
    this.offsets.set(object, this.pos);
    this.pos++;
    this.skipWhitespace();
    if (this.text[this.pos] === "}") {
      this.pos++;
      return object;
    }
    for (;;) {
      if (this.text[this.pos] !== '"') this.fail(`expected a property name in double quotes but found ${this.describeHere()}`);
      const key = this.parseString();
      this.skipWhitespace();
      this.expect(":", "after a property name");
      this.skipWhitespace();
      const value = this.parseValue(depth);
      // Assigning "__proto__" would replace the prototype instead of adding a property.
      if (key === "__proto__") Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
      else object[key] = value;
      this.skipWhitespace();
      if (this.text[this.pos] === "}") {
        this.pos++;
        return object;
      }
      this.expect(",", "or '}' after a property value");
      this.skipWhitespace();
    }
  }

  private parseArray(depth: number): JsonValue {
    this.checkDepth(depth);
    const array: JsonValue[] = [];
    this.offsets.set(array, this.pos);
    this.pos++;
    this.skipWhitespace();
    if (this.text[this.pos] === "]") {
      this.pos++;
      return array;
    }
    for (;;) {
      array.push(this.parseValue(depth));
      this.skipWhitespace();
      if (this.text[this.pos] === "]") {
        this.pos++;
        return array;
      }
      this.expect(",", "or ']' after an array element");
      this.skipWhitespace();
    }
  }

  private parseString(): string {
    const start = this.pos;
    this.pos++;
    let result = "";
    let chunkStart = this.pos;
    for (;;) {
      const code = this.text.charCodeAt(this.pos);
      if (Number.isNaN(code)) this.fail("unterminated string", start);
      if (code === 0x22) break;
      if (code < 0x20) this.fail("control character inside a string (escape it, e.g. \\n)");
      if (code === 0x5c) {
        result += this.text.slice(chunkStart, this.pos);
        result += this.parseEscape();
        chunkStart = this.pos;
      } else {
        this.pos++;
      }
    }
    result += this.text.slice(chunkStart, this.pos);
    this.pos++;
    return result;
  }

  private parseEscape(): string {
    const letter = this.text[this.pos + 1];
    if (letter === "u") {
      const hex = this.text.slice(this.pos + 2, this.pos + 6);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail("\\u must be followed by four hex digits");
      this.pos += 6;
      return String.fromCharCode(parseInt(hex, 16));
    }
    const escaped = letter === undefined ? undefined : ESCAPES[letter];
    if (escaped === undefined) this.fail(`invalid escape \\${letter ?? ""} inside a string`);
    this.pos += 2;
    return escaped;
  }

  private parseNumber(): number {
    NUMBER_PATTERN.lastIndex = this.pos;
    const match = NUMBER_PATTERN.exec(this.text);
    if (match === null) return this.fail(`invalid number starting with ${this.describeHere()}`);
    this.pos += match[0].length;
    return Number(match[0]);
  }

  private checkDepth(depth: number): void {
    if (depth > this.maxDepth) throw new SyntaxFailure(`nested deeper than ${this.maxDepth} levels`, this.pos, true);
  }

  private expect(char: string, context: string): void {
    if (this.text[this.pos] !== char) this.fail(`expected '${char}' ${context} but found ${this.describeHere()}`);
    this.pos++;
  }

  private skipWhitespace(): void {
    for (;;) {
      const code = this.text.charCodeAt(this.pos);
      if (code !== 0x20 && code !== 0x0a && code !== 0x0d && code !== 0x09) return;
      this.pos++;
    }
  }

  private describeHere(): string {
    const char = this.text[this.pos];
    return char === undefined ? "the end of the text" : `'${char}'`;
  }

  private fail(message: string, offset = this.pos): never {
    throw new SyntaxFailure(message, offset);
  }
}
