/**
 * Waits for `promise` at most `ms`, whatever it does: for closing what may never end (a render
 * past its grace, what an unreachable Redis holds up). True when it settled in time.
 */
export function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const settled = promise.then(() => true, () => true);
  return Promise.race([settled, new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)))]).finally(() => clearTimeout(timer));
}
