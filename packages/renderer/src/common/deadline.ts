const TIMED_OUT: unique symbol = Symbol("timed out");

/**
 * `work`'s outcome, or what `onTimeout()` gives (or throws) once `ms` have passed without one.
 * Work given as a function is handed a signal that aborts at the deadline, so that it stops too.
 * The timer is cleared whichever comes first; work that settles after the deadline is ignored.
 * Browser-safe: the preview page uses it as the CLI and the server do.
 */
export async function withDeadline<T, U = never>(
  work: Promise<T> | ((signal: AbortSignal) => Promise<T>),
  ms: number,
  onTimeout: () => U | Promise<U>,
): Promise<T | U> {
  const controller = new AbortController();
  const running = typeof work === "function" ? work(controller.signal) : work;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), ms);
  });
  try {
    const outcome = await Promise.race([running, expired]);
    if (outcome !== TIMED_OUT) return outcome;
  } finally {
    clearTimeout(timer);
  }
  controller.abort();
  return onTimeout();
}
