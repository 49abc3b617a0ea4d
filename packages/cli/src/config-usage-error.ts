import { ServerConfigError } from "@compose/producer/config";
import { UsageError } from "./usage-error.js";

/** Runs `read`, turning the producer's refusal of a start-up setting (compose serve, compose worker) into a usage error. */
export function configOrUsageError<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw error instanceof ServerConfigError ? new UsageError(error.message) : error;
  }
}
