/**
 * docs/schemas/info.schema.json is the JSON Schema of `compose info --json` that the producer
 * generates from core's zod schema and serves at GET /schemas/info.json: the test fails when the
 * file is stale. `COMPOSE_WRITE_SCHEMAS=1 npx vitest run test/docs/info-schema.test.ts` writes it anew.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { infoJsonSchema } from "@compose/producer";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/project.js";

const FILE = join(REPO_ROOT, "docs/schemas/info.schema.json");
const generated = `${JSON.stringify(infoJsonSchema(), null, 2)}\n`;

describe("docs/schemas/info.schema.json", () => {
  it("is the schema generated from the zod schema the CLI builds its output to", async () => {
    if (process.env.COMPOSE_WRITE_SCHEMAS === "1") await writeFile(FILE, generated);
    expect(await readFile(FILE, "utf8"), "stale: run COMPOSE_WRITE_SCHEMAS=1 npx vitest run test/docs/info-schema.test.ts").toBe(generated);
  });

  it("is a JSON Schema (2020-12) that refuses what is not info's output", () => {
    const validate = new Ajv2020({ strict: false }).compile(JSON.parse(generated));
    expect(validate({ kind: "folder", folder: "scenes", compositions: [{ file: "a.html", id: "a", width: 320, height: 180, duration: 1 }] })).toBe(true);
    expect(validate({ kind: "folder", folder: "scenes", compositions: [], extra: true })).toBe(false);
    expect(validate({ kind: "composition" })).toBe(false);
  });
});
