import type { FastifyInstance } from "fastify";
import { HttpError } from "./errors.js";

/** Keys that could reach an object's prototype once the body is merged or copied: refused, by name. */
function refuseForbiddenKeys(key: string, value: unknown): unknown {
  const prototypeHolder = key === "constructor" && typeof value === "object" && value !== null && Object.hasOwn(value, "prototype");
  if (key === "__proto__" || prototypeHolder) {
    const what = key === "__proto__" ? `"__proto__"` : `"constructor" holding "prototype"`;
    throw new HttpError(400, "forbidden-key", `the request body has the key ${what}, which is never accepted: remove it`);
  }
  return value;
}

/**
 * Parses JSON bodies itself, so that a body with a prototype key is refused as `forbidden-key`
 * (Fastify's parser calls it "not valid JSON") and a malformed one says where it goes wrong.
 */
export function installJsonBodyParser(app: FastifyInstance): void {
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (_request, body, done) => {
    const text = body as string;
    if (text.trim() === "") return done(new HttpError(400, "invalid-json", "the request body is empty; send a JSON object"), undefined);
    try {
      done(null, JSON.parse(text, refuseForbiddenKeys));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
}
