import type { RenderError } from "@compose/renderer";

/** Exit code of a process ended by Ctrl-C, as shells report it. */
export const EXIT_INTERRUPTED = 130;

/** What stops when the reader of stdout goes away: the work under way, else the process. */
const readerGone = new Set<() => void>();

/**
 * A reader that stops reading (`compose render --json | head -3`) ends the command as it ends
 * other tools, not with an unhandled EPIPE: work under untilInterrupted stops as on Ctrl-C (no
 * half-written output left), anything else exits at once; both with EXIT_INTERRUPTED.
 */
export function stopWhenStdoutReaderGoes(): void {
  let told = false;
  process.stdout.on("error", () => {
    if (told) return;
    told = true;
    if (readerGone.size === 0) process.exit(EXIT_INTERRUPTED);
    for (const stop of readerGone) stop();
  });
}

/** Runs `work` with a signal that Ctrl-C, SIGTERM or stdout's reader going away aborts; the handlers go when it ends. */
export async function untilInterrupted<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const interrupt = () => controller.abort();
  process.once("SIGINT", interrupt);
  process.once("SIGTERM", interrupt);
  readerGone.add(interrupt);
  try {
    return await work(controller.signal);
  } finally {
    process.off("SIGINT", interrupt);
    process.off("SIGTERM", interrupt);
    readerGone.delete(interrupt);
  }
}

/** Prints a render's failure as its one line (and its cause under COMPOSE_DEBUG); returns the exit code: 130 when cancelled, else 1. */
export function renderFailureExit(error: RenderError): number {
  if (process.env.COMPOSE_DEBUG) console.error(error.cause ?? error);
  process.stderr.write(`error: ${error.message}\n`);
  return error.code === "cancelled" ? EXIT_INTERRUPTED : 1;
}
