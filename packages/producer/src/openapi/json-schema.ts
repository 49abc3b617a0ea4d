import { infoOutputSchema, jsonSchema } from "@compose/core";

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
