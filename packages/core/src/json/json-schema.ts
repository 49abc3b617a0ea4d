import { z } from "zod";

/** A zod schema as a JSON Schema of its own, without the dialect line: as a request takes it (input) or a response gives it (output). */
export function jsonSchema(schema: z.ZodType, io: "input" | "output" = "input"): Record<string, unknown> {
  const { $schema: _, ...converted } = z.toJSONSchema(schema, { io }) as Record<string, unknown>;
  return converted;
}
