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
 * The renderer's event, with its fields unchanged, as the server's clients receive it: with the
 * request's id, and with `output` (the renderer names a path on the machine that rendered) as the
 * output's download URL, so the server never shows its filesystem.
 */
export function clientEvent<E extends RenderEvent>(requestId: string, event: E): ClientRenderEvent<E> {
  const sent = { ...event, requestId };
  return "output" in sent ? { ...sent, output: renderUrls.output(requestId) } : sent;
}

/** The request's last event: nothing follows it. */
export function isFinalEvent(event: JobEvent): boolean {
  return event.type === "finished" || event.type === "failed";
}
