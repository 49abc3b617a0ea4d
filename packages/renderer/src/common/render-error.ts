import type { RenderErrorCode } from "@compose/core";
import { printable } from "@compose/core/text";

export type { RenderErrorCode } from "@compose/core";

/** One thing that went wrong, with its code: a failure is a list of them, the first cause first. */
export interface RenderProblem {
  code: string;
  message: string;
}

/**
 * A failure the user can act on: its message is the one line they see. An unexplained failure
 * keeps what caused it as `cause`, which the CLI prints under COMPOSE_DEBUG. `problems` lists
 * what went wrong in the order it did (a script that failed to load, then the page error that
 * followed); a failure with one cause is its own one problem.
 */
export class RenderError extends Error {
  readonly problems: RenderProblem[];

  constructor(
    readonly code: RenderErrorCode,
    message: string,
    options?: { cause?: unknown; problems?: RenderProblem[] },
  ) {
    super(printable(message), options);
    this.name = "RenderError";
    this.problems = (options?.problems ?? [{ code, message }]).map((problem) => ({ code: problem.code, message: printable(problem.message) }));
  }
}

export function cancelledError(): RenderError {
  return new RenderError("cancelled", "render cancelled");
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw cancelledError();
}
