import { printable } from "@compose/core/text";

/**
 * A mistake in how the command was called: one line on stderr and exit code 2, and under it one
 * indented line for each of `details` where one mistake has several parts (every refused row of a batch).
 */
export class UsageError extends Error {
  override name = "UsageError";
  readonly details: string[];

  constructor(message: string, details: string[] = []) {
    super(printable(message));
    this.details = details.map((detail) => printable(detail));
  }
}
