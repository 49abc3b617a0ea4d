import { renderEventSchema, type RenderEvent } from "@compose/core";

/** What `--json` adds to a batch's events: the row (1-based) each is of. */
export interface EventPlace {
  row?: number;
}

/**
 * Writes one render event as one line of JSON, checked against core's event schema first (the
 * shape the server streams and docs/agents.md documents), with its place in a batch after it.
 */
export function writeJsonEvent(out: NodeJS.WritableStream, event: RenderEvent, place: EventPlace = {}): void {
  out.write(`${JSON.stringify({ ...renderEventSchema.parse(event), ...place })}\n`);
}

/** A usage error as a `failed` event with code invalid-request, for a program reading --json. */
export function writeUsageFailure(out: NodeJS.WritableStream, message: string, details: readonly string[] = []): void {
  const problems = (details.length > 0 ? details : [message]).map((text) => ({ code: "invalid-request", message: text }));
  writeJsonEvent(out, { type: "failed", code: "invalid-request", message, problems });
}
