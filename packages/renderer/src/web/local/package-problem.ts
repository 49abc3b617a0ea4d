import { describeValue, type FontPackageProblem } from "@compose/core";
import type { z } from "zod";

/** A package's problem as one line: the file, relative to the project (and the place in it), then what is wrong. */
export function describePackageProblem({ file, line, column, problem }: FontPackageProblem): string {
  return `${file}${line === undefined ? "" : `:${line}:${column}`} ${problem}`;
}

/** The 1-based line and column of `offset` in `text`. */
function positionOf(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split("\n");
  return { line: before.length, column: before.at(-1)!.length + 1 };
}

/** What is wrong with a value `schema` refuses: the first problem, at its path, with what was there. */
function schemaProblem(error: z.ZodError, value: unknown): string {
  const issue = error.issues[0]!;
  const at = issue.path.reduce<unknown>((part, key) => (part as Record<PropertyKey, unknown> | undefined)?.[key as PropertyKey], value);
  const field = issue.path.length === 0 ? "the file" : `"${issue.path.join(".")}"`;
  return `${field} ${issue.message} (got ${at === undefined ? "nothing" : describeValue(at)})`;
}

/**
 * A package's JSON file (package.json, metadata.json) read against the shape compose relies on:
 * its value, or what is wrong with it (with the place of a syntax error), to be completed with
 * what follows from it.
 */
export function parsePackageJson<T>(text: string, schema: z.ZodType<T>): { value: T } | Omit<FontPackageProblem, "file"> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const offset = /at position (\d+)/.exec(message)?.[1];
    const reason = message.replace(/ in JSON at position \d+.*$/, "").replace(/ \(line \d+ column \d+\)$/, "");
    return { ...(offset === undefined ? {} : positionOf(text, Number(offset))), problem: `is not valid JSON: ${reason}` };
  }
  const checked = schema.safeParse(value);
  return checked.success ? { value: checked.data } : { problem: `is not what compose reads: ${schemaProblem(checked.error, value)}` };
}
