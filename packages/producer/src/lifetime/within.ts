import { withDeadline } from "@compose/renderer";

/**
 * Waits for `promise` at most `ms`, whatever it does: for closing what may never end (a render
 * past its grace, what an unreachable Redis holds up). True when it settled in time.
 */
export function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return withDeadline(
    promise.then(
      () => true,
      () => true,
    ),
    ms,
    () => false,
  );
}
