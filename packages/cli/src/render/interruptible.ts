import type { RenderError } from "@compose/renderer";

/** Exit code of a process ended by Ctrl-C, as shells report it. */
export const EXIT_INTERRUPTED = 130;

/** Runs `work` with a signal that Ctrl-C or SIGTERM aborts; the handlers go when it ends. */
export async function untilInterrupted<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const interrupt = () => controller.abort();
  process.once("SIGINT", interrupt);
  process.once("SIGTERM", interrupt);
  try {
    return await work(controller.signal);
  } finally {
    process.off("SIGINT", interrupt);
    process.off("SIGTERM", interrupt);
  }
}

/** Prints a render's failure as its one line (and its cause under COMPOSE_DEBUG); returns the exit code: 130 when cancelled, else 1. */
export function renderFailureExit(error: RenderError): number {
  if (process.env.COMPOSE_DEBUG) console.error(error.cause ?? error);
  process.stderr.write(`error: ${error.message}\n`);
  return error.code === "cancelled" ? EXIT_INTERRUPTED : 1;
}
