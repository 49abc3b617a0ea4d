import { printable } from "@compose/core/text";

/**
 * An error that is our fault, not the user's, as one line with a pointer for reporting it; its
 * stack goes to stderr under COMPOSE_DEBUG.
 */
export function unexpectedErrorLine(error: unknown): string {
  if (process.env.COMPOSE_DEBUG) console.error(error);
  const message = error instanceof Error ? error.message : String(error);
  return `${printable(message.split("\n")[0]!)} (unexpected; set COMPOSE_DEBUG=1 for details)`;
}
