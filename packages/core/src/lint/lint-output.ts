/**
 * What `compose lint --json` prints (and the lint tool of `compose mcp` returns), declared once:
 * the findings' type is inferred from it, so the output cannot grow a field the schema lacks.
 */
import { z } from "zod";
import { LINT_CODES, LINT_SEVERITIES, type LintCode } from "./codes.js";

const position = () => z.number().int().min(1);

export const lintFindingSchema = z.strictObject({
  file: z.string().describe("Relative to the current directory."),
  line: position().describe("1-based."),
  column: position().describe("1-based."),
  severity: z.enum(LINT_SEVERITIES).describe("The code's, the same everywhere (docs/lint.md)."),
  code: z.enum(Object.keys(LINT_CODES) as [LintCode, ...LintCode[]]),
  message: z.string(),
});

export const lintOutputSchema = z.strictObject({
  files: z.array(z.string()).describe("Every file linted, in the order reached: the entry, the compositions it embeds, their style sheets."),
  errors: z.number().int().min(0),
  warnings: z.number().int().min(0),
  findings: z.array(lintFindingSchema).describe("The entry's findings first."),
});
export type LintOutput = z.infer<typeof lintOutputSchema>;
