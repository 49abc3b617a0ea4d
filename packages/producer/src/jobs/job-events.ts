import { tmpdir } from "node:os";
import { dirname, sep } from "node:path";
import { RENDER_EVENT_TYPES, type RenderEvent } from "@compose/renderer";
import { renderUrls } from "../http/urls.js";

/**
 * The queue's own events, before the renderer has anything to say: the request waits at
 * `position` (1 runs next), or it has a slot and its render is being set up (`running`, whether or
 * not it waited). Their names are the request's states and never a renderer event's.
 */
export type QueueEvent = { type: "queued"; requestId: string; position: number } | { type: "running"; requestId: string };

/** Every event a stream may carry, by `type`: the queue's, then the renderer's. */
export const JOB_EVENT_TYPES = ["queued", "running", ...RENDER_EVENT_TYPES] as const satisfies ReadonlyArray<JobEvent["type"]>;

/** A renderer event as a client receives it: see clientEvent. */
export type ClientRenderEvent<E extends RenderEvent = RenderEvent> = E & { requestId: string };

/** What a client hears of one request: the queue's events, then the renderer's own. */
export type JobEvent = QueueEvent | ClientRenderEvent;

/**
 * A message with the server's own paths replaced by what a client knows: the request's output
 * by its download URL, the outputs directory and the temporary directory by their names.
 */
function withoutServerPaths(message: string, requestId: string, output: string): string {
  return message
    .replaceAll(output, renderUrls.output(requestId))
    .replaceAll(`${dirname(output)}${sep}`, "")
    .replaceAll(dirname(output), "the outputs directory")
    .replaceAll(tmpdir(), "the server's temporary directory");
}

/**
 * The renderer's event as the server's clients receive it: with the request's id, with `output`
 * (the renderer names a path on the machine that rendered) as the output's download URL, and no
 * path of the server's in a message, so the server never shows its filesystem.
 */
export function clientEvent<E extends RenderEvent>(requestId: string, event: E, output: string): ClientRenderEvent<E> {
  const sent = { ...event, requestId };
  if ("message" in sent) return { ...sent, message: withoutServerPaths(sent.message, requestId, output) };
  return "output" in sent ? { ...sent, output: renderUrls.output(requestId) } : sent;
}

/** The request's last event: nothing follows it. */
export function isFinalEvent(event: JobEvent): boolean {
  return event.type === "finished" || event.type === "failed";
}
