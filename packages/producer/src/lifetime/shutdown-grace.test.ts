import { spawn } from "node:child_process";
import { once } from "node:events";
import { describe, expect, it } from "vitest";
import { trackChild } from "@compose/renderer";
import { closeWithinGrace, graceWindows } from "./shutdown-grace.js";

describe("graceWindows", () => {
  it.each([
    [0, 0, 5000],
    [2000, 0, 5000],
    [5000, 0, 5000],
    [8000, 3000, 5000],
    [30_000, 25_000, 5000],
    [3_600_000, 3_595_000, 5000],
  ])("splits a grace of %i ms into %i ms to finish and %i ms to unwind", (grace, finishMs, cancelMs) => {
    expect(graceWindows(grace)).toEqual({ finishMs, cancelMs });
  });
});

describe("closeWithinGrace", () => {
  it("kills the processes still running when the close outlasts the grace (5 s at least)", async () => {
    const child = trackChild(spawn("sleep", ["60"]));
    const exited = once(child, "exit");
    const started = Date.now();
    const killed = await closeWithinGrace(() => new Promise(() => undefined), 0);
    expect(killed).toBe(1);
    expect(await exited).toEqual([null, "SIGKILL"]);
    expect(Date.now() - started).toBeLessThan(6000);
  });

  it("kills nothing when the close ends in time", async () => {
    const child = trackChild(spawn("sleep", ["60"]));
    expect(await closeWithinGrace(async () => undefined, 1000)).toBe(0);
    expect(child.exitCode).toBeNull();
    child.kill();
  });
});
