import type { VirtualClock } from "./virtual-clock.js";

/** Wall-clock date at composition time 0, so dates printed by a composition never vary. */
const VIRTUAL_EPOCH_MS = Date.UTC(2024, 0, 1);

/**
 * Makes `performance.now()` return composition milliseconds and `Date.now()` / `new Date()` /
 * `Date()` return VIRTUAL_EPOCH_MS plus composition time. Dates built from explicit arguments
 * are untouched.
 */
export function installVirtualDateAndPerformance(clock: VirtualClock): void {
  const NativeDate = Date;
  const nowMs = (): number => Math.floor(VIRTUAL_EPOCH_MS + clock.now());

  // A plain function rather than a subclass: `Date()` without `new` must keep returning a string,
  // and `instanceof Date` must hold for dates made before and after the swap.
  function VirtualDate(this: unknown, ...args: unknown[]): Date | string {
    if (!new.target) return new NativeDate(nowMs()).toString();
    return Reflect.construct(NativeDate, args.length === 0 ? [nowMs()] : args, new.target) as Date;
  }
  VirtualDate.prototype = NativeDate.prototype;
  Object.defineProperties(VirtualDate, {
    name: { value: "Date" },
    length: { value: NativeDate.length },
    now: { value: nowMs, writable: true, configurable: true },
    parse: { value: NativeDate.parse, writable: true, configurable: true },
    UTC: { value: NativeDate.UTC, writable: true, configurable: true },
  });
  Object.defineProperty(NativeDate.prototype, "constructor", {
    value: VirtualDate,
    writable: true,
    configurable: true,
  });
  Object.defineProperty(window, "Date", {
    value: VirtualDate,
    writable: true,
    configurable: true,
  });

  Object.defineProperty(performance, "now", {
    value: () => clock.now(),
    writable: true,
    configurable: true,
  });
}
