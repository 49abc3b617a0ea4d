/**
 * The renderer's events become the stream's through the schemas the OpenAPI document is made
 * from: what the schemas do not allow is refused before it reaches a client.
 */
import { RENDER_ERROR_CODES, RENDER_EVENT_TYPES, type RenderErrorCode, type RenderEvent } from "@compose/core";
import type { RenderErrorCode as RendererErrorCode, RenderEvent as RendererEvent } from "@compose/renderer";
import { RENDER_EVENT_TYPES as RENDERER_EVENT_TYPES } from "@compose/renderer";
import { describe, expect, it } from "vitest";
import { clientEvent, JOB_EVENT_TYPES } from "./job-events.js";

const output = { path: "/srv/outputs/r1.mp4", url: "/render/r1/output" };

describe("clientEvent", () => {
  it("gives the event the request's id and the output's URL, and hides the server's paths", () => {
    const warning = clientEvent("r1", { type: "warning", code: "no-change", message: "wrote /srv/outputs/r1.mp4 beside /srv/outputs/other.mp4" }, output);
    expect(warning).toEqual({ type: "warning", code: "no-change", message: "wrote /render/r1/output beside other.mp4", requestId: "r1" });
  });

  it("refuses an event with a field the schema does not name, or a failure code that is none of the error codes", () => {
    const progress = { type: "progress", stage: "capture", frame: 1, totalFrames: 2, percent: 50, framesPerSecond: 10 } as const;
    expect(clientEvent("r1", progress, output)).toEqual({ ...progress, requestId: "r1" });
    expect(() => clientEvent("r1", { ...progress, eta: 3 } as RendererEvent, output)).toThrow(
      'a progress event the event schema refuses: the event Unrecognized key: "eta"',
    );
    const failed = { type: "failed" as const, code: "internal", message: "boom", problems: [] };
    expect(() => clientEvent("r1", failed as RendererEvent, output)).toThrow(/^a failed event the event schema refuses: code Invalid option/);
  });
});

describe("the renderer's events and the schema's", () => {
  it("have the same types and the renderer's failure codes are error codes", () => {
    expect([...RENDER_EVENT_TYPES].sort()).toEqual([...RENDERER_EVENT_TYPES].sort());
    expect(JOB_EVENT_TYPES).toEqual(["queued", "running", ...RENDER_EVENT_TYPES]);
    // Checked by the compiler: every failure code of the renderer is one of the schema's, and
    // every event the schema allows is one the renderer's own consumers accept.
    const asErrorCode = (code: RendererErrorCode): RenderErrorCode => code;
    const asRendererEvent = (event: RenderEvent): RendererEvent => event;
    const accepted = asRendererEvent({ type: "failed", code: asErrorCode("page-hung"), message: "hung", problems: [] });
    expect(RENDER_ERROR_CODES).toContain(accepted.type === "failed" ? accepted.code : undefined);
  });
});
