import { nextMacrotask, queueMacrotask } from "./macrotask.js";
import type { VirtualClock } from "./virtual-clock.js";

interface Timer {
  readonly id: number;
  due: number;
  /** Order of scheduling, which breaks ties between timers due at the same time. */
  order: number;
  /** HTML's timer nesting level, which clamps short delays of deeply nested timers. */
  nesting: number;
  readonly repeatEvery: number | undefined;
  readonly callback: () => void;
}

/*
 * HTML clamps delays below 4 ms once timers are nested more than 5 deep. We keep that rule
 * because it is what stops a timer that reschedules itself with no delay (or a zero-delay
 * interval) from running forever at one virtual instant.
 */
const MAX_UNCLAMPED_NESTING = 5;
const CLAMPED_DELAY_MS = 4;

function clampedDelay(delay: unknown, nesting: number): number {
  const ms = Math.max(0, Number(delay) || 0);
  return nesting > MAX_UNCLAMPED_NESTING && ms < CLAMPED_DELAY_MS ? CLAMPED_DELAY_MS : ms;
}

/**
 * setTimeout / setInterval on the virtual clock. A timer fires when the clock reaches its due
 * time: timers already due (zero delays) run soon, each in its own task, as in a browser; later
 * ones wait for a seek to carry the clock past them.
 */
export class VirtualTimers {
  readonly #clock: VirtualClock;
  readonly #timers = new Map<number, Timer>();
  #lastId = 0;
  #lastOrder = 0;
  #runningNesting = 0;
  #pumpQueued = false;

  constructor(clock: VirtualClock) {
    this.#clock = clock;
  }

  install(): void {
    const schedule = (handler: TimerHandler, delay: unknown, args: unknown[], repeat: boolean): number => this.#schedule(handler, delay, args, repeat);
    const clear = (id: number | undefined): void => {
      if (id !== undefined) this.#timers.delete(Number(id));
    };
    window.setTimeout = ((handler: TimerHandler, delay?: number, ...args: unknown[]) => schedule(handler, delay, args, false)) as typeof window.setTimeout;
    window.setInterval = ((handler: TimerHandler, delay?: number, ...args: unknown[]) => schedule(handler, delay, args, true)) as typeof window.setInterval;
    window.clearTimeout = clear;
    window.clearInterval = clear;
  }

  /**
   * Moves the clock to `targetMs`. Forward, every timer due on the way fires in due-time order
   * with the clock at its due time, each in its own task. Backward, the clock is just set: timers
   * that already fired stay fired and pending ones keep their due times.
   */
  async advanceTo(targetMs: number): Promise<void> {
    for (let timer = this.#nextDue(targetMs); timer; timer = this.#nextDue(targetMs)) {
      if (timer.due > this.#clock.now()) this.#clock.set(timer.due);
      this.#run(timer);
      await nextMacrotask();
    }
    this.#clock.set(targetMs);
  }

  /** Runs the timers due at the current time, including any they schedule with no delay. */
  async runDue(): Promise<void> {
    do await nextMacrotask();
    while (this.#runNextDue());
  }

  #schedule(handler: TimerHandler, delay: unknown, args: unknown[], repeat: boolean): number {
    const callback =
      typeof handler === "function"
        ? () => handler(...args)
        : // A string handler is evaluated in global scope, like the browser does.
          () => (0, eval)(String(handler));
    const nesting = this.#runningNesting;
    const ms = clampedDelay(delay, nesting);
    const timer: Timer = {
      id: ++this.#lastId,
      due: this.#clock.now() + ms,
      order: ++this.#lastOrder,
      nesting: nesting + 1,
      repeatEvery: repeat ? Math.max(0, Number(delay) || 0) : undefined,
      callback,
    };
    this.#timers.set(timer.id, timer);
    if (timer.due <= this.#clock.now()) this.#queuePump();
    return timer.id;
  }

  #queuePump(): void {
    if (this.#pumpQueued) return;
    this.#pumpQueued = true;
    queueMacrotask(() => {
      this.#pumpQueued = false;
      if (this.#runNextDue()) this.#queuePump();
    });
  }

  #runNextDue(): boolean {
    const timer = this.#nextDue(this.#clock.now());
    if (timer) this.#run(timer);
    return timer !== undefined;
  }

  #nextDue(limitMs: number): Timer | undefined {
    let next: Timer | undefined;
    for (const timer of this.#timers.values()) {
      if (timer.due > limitMs) continue;
      if (!next || timer.due < next.due || (timer.due === next.due && timer.order < next.order)) next = timer;
    }
    return next;
  }

  /** How many timer callbacks have run: a seek that ran none changed nothing through timers. */
  ran = 0;

  #run(timer: Timer): void {
    this.ran++;
    const nesting = timer.nesting;
    if (timer.repeatEvery === undefined) {
      this.#timers.delete(timer.id);
    } else {
      // Rescheduled before the callback runs so that clearInterval inside it wins.
      timer.due += clampedDelay(timer.repeatEvery, nesting);
      timer.order = ++this.#lastOrder;
      timer.nesting = nesting + 1;
    }
    this.#runningNesting = nesting;
    try {
      timer.callback();
    } catch (error) {
      reportError(error);
    }
    // The task lasts until its microtasks have run (`await` chains that schedule the next timer
    // count as nested), so the level is cleared by the next task, not here.
    queueMacrotask(() => {
      if (this.#runningNesting === nesting) this.#runningNesting = 0;
    });
  }
}
