import { afterEach, describe, expect, it, vi } from "vitest";
import { withDeadline } from "./deadline.js";

const never = () => new Promise<string>(() => undefined);

describe("withDeadline", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("gives the work's value when it settles in time, and leaves no timer behind", async () => {
    vi.useFakeTimers();
    await expect(withDeadline(Promise.resolve("done"), 60_000, () => "late")).resolves.toBe("done");
    await expect(withDeadline(Promise.reject(new Error("failed")), 60_000, () => "late")).rejects.toThrow("failed");
    expect(vi.getTimerCount()).toBe(0);
  });

  it("gives what onTimeout gives, or throws, once the time is over", async () => {
    vi.useFakeTimers();
    const late = withDeadline(never(), 5000, () => "late");
    const thrown = withDeadline(never(), 5000, () => {
      throw new Error("not within 5 s");
    });
    thrown.catch(() => undefined);
    await vi.advanceTimersByTimeAsync(5000);
    await expect(late).resolves.toBe("late");
    await expect(thrown).rejects.toThrow("not within 5 s");
  });

  it("aborts work that takes a signal at the deadline, and not before", async () => {
    vi.useFakeTimers();
    let signal: AbortSignal | undefined;
    const late = withDeadline(
      (given) => {
        signal = given;
        return never();
      },
      5000,
      () => "late",
    );
    await vi.advanceTimersByTimeAsync(4999);
    expect(signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await expect(late).resolves.toBe("late");
    expect(signal?.aborted).toBe(true);
  });
});
