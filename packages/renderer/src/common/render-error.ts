import { printable } from "@compose/core";

export type RenderErrorCode =
  | "invalid-composition"
  | "invalid-variables"
  | "missing-asset"
  | "browser-missing"
  | "browser-crashed"
  | "ffmpeg-missing"
  | "encode-failed"
  | "page-error"
  | "media-error"
  | "not-ready"
  | "page-crashed"
  | "page-hung"
  | "left-composition"
  | "invalid-output"
  | "invalid-frames"
  | "limit-exceeded"
  | "disk-full"
  | "internal-error"
  | "cancelled";

/**
 * A failure the user can act on: its message is the one line they see. An unexplained failure
 * keeps what caused it as `cause`, which the CLI prints under COMPOSE_DEBUG.
 */
export class RenderError extends Error {
  constructor(
    readonly code: RenderErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(printable(message), options);
    this.name = "RenderError";
  }
}

export function cancelledError(): RenderError {
  return new RenderError("cancelled", "render cancelled");
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw cancelledError();
}
