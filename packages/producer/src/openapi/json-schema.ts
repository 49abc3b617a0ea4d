import { infoOutputSchema } from "@compose/core";
import { z } from "zod";

/** A zod schema as a JSON Schema of its own, without the dialect line: as a request takes it (input) or a response gives it (output). */
export function jsonSchema(schema: z.ZodType, io: "input" | "output" = "input"): Record<string, unknown> {
  const { $schema: _, ...converted } = z.toJSONSchema(schema, { io }) as Record<string, unknown>;
  return converted;
}

/**
 * The JSON Schema of what `compose info --json` prints, from the one zod schema the CLI builds its
 * output to: served at GET /schemas/info.json (INFO_SCHEMA_PATH) and kept as docs/schemas/info.schema.json.
 */
export function infoJsonSchema(): object {
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    title: "compose info --json",
    description:
      "What `compose info --json` prints: one composition's facts (kind composition), or for a folder without an index.html the compositions in it (kind folder).",
    ...jsonSchema(infoOutputSchema, "output"),
  };
}
