import { printable } from "@compose/core";
import { ServerConfigError } from "@compose/producer/config";

/** A mistake in how the command was called: one line on stderr and exit code 2. */
export class UsageError extends Error {
  override name = "UsageError";

  constructor(message: string) {
    super(printable(message));
  }
}

/** Runs `read`, turning the producer's refusal of a start-up setting into a usage error. */
export function configOrUsageError<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw error instanceof ServerConfigError ? new UsageError(error.message) : error;
  }
}
