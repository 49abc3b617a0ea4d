import { MAX_JSON_DEPTH, parseJson, type JsonValue } from "@compose/core";
import type { FastifyInstance } from "fastify";
import { HttpError } from "./errors.js";

/** A key that could reach an object's prototype once the body is merged or copied: refused, by name. */
function forbiddenKey(value: JsonValue): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = forbiddenKey(item);
      if (found) return found;
    }
    return undefined;
  }
  for (const [key, child] of Object.entries(value)) {
    if (key === "__proto__") return `"__proto__"`;
    if (key === "constructor" && typeof child === "object" && child !== null && Object.hasOwn(child, "prototype")) return `"constructor" holding "prototype"`;
    const found = forbiddenKey(child);
    if (found) return found;
  }
  return undefined;
}

/**
 * Parses JSON bodies itself: with a limit on nesting (a body nested thousands deep is a 400, not
 * a stack overflow), a body with a prototype key refused as `forbidden-key`, and a malformed one
 * told where it goes wrong. Only JSON is taken: any other type is a 415.
 */
export function installJsonBodyParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("application/json", { parseAs: "string" }, (_request, body, done) => {
    const text = body as string;
    if (text.trim() === "") return done(new HttpError(400, "invalid-json", "the request body is empty; send a JSON object"), undefined);
    const parsed = parseJson(text, MAX_JSON_DEPTH);
    if (!parsed.ok) {
      const { message, offset, tooDeep } = parsed.error;
      const why = tooDeep ? `it is nested deeper than the ${MAX_JSON_DEPTH} levels allowed` : `${message} at character ${offset + 1}`;
      return done(new HttpError(400, "invalid-json", `the request body is not valid JSON: ${why}`), undefined);
    }
    const key = forbiddenKey(parsed.value);
    if (key) return done(new HttpError(400, "forbidden-key", `the request body has the key ${key}, which is never accepted: remove it`), undefined);
    done(null, parsed.value);
  });
}
