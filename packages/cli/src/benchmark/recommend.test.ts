import { describe, expect, it } from "vitest";
import { candidateWorkerCounts, concurrencyRange, recommend, type BenchmarkRun } from "./recommend.js";

const GiB = 1024 ** 3;
const MiB = 1024 ** 2;

function run(workers: number, framesPerSecond: number, peakMemoryBytes = 700 * MiB * workers): BenchmarkRun {
  return { workers, frames: 60, framesPerSecond, wallMs: 5000, captureMs: 4000, peakMemoryBytes };
}

describe("candidateWorkerCounts", () => {
  it.each([
    [1, [1]],
    [2, [1, 2]],
    [6, [1, 2, 3, 4, 5, 6]],
    [64, [1, 2, 3, 4, 5, 6, 7, 8]],
  ])("%i cores -> %j", (cores, expected) => {
    expect(candidateWorkerCounts(cores)).toEqual(expected);
  });
});

describe("concurrencyRange (the concurrency limit guidance)", () => {
  it.each([
    [1, [1, 1]],
    [2, [1, 1]],
    [4, [1, 1]],
    [6, [1, 1]],
    [8, [2, 2]],
    [12, [2, 2]],
    [16, [3, 4]],
    [24, [3, 4]],
    [32, [5, 6]],
    [128, [5, 6]],
  ])("%i cores -> %j", (cores, expected) => {
    expect(concurrencyRange(cores)).toEqual(expected);
  });
});

describe("recommend", () => {
  const big = { cores: 16, totalMemoryBytes: 64 * GiB };

  it("takes the fastest worker count", () => {
    expect(recommend([run(1, 10), run(2, 18), run(3, 25), run(4, 30)], big).workers).toBe(4);
  });

  it("prefers fewer workers when they are within 10% of the fastest", () => {
    expect(recommend([run(1, 10), run(2, 19), run(3, 20), run(4, 19.5)], big).workers).toBe(2);
  });

  it("gives the top of the concurrency range when memory allows, and less when it does not", () => {
    expect(recommend([run(1, 10)], big).maxConcurrentRenders).toBe(4);
    // 4 renders of 13 GiB do not fit in 75% of 64 GiB (48 GiB); 3 do.
    expect(recommend([run(1, 10, 13 * GiB)], big).maxConcurrentRenders).toBe(3);
    expect(recommend([run(1, 10, 40 * GiB)], big).maxConcurrentRenders).toBe(1);
  });

  it("follows the guidance table for the machine's cores", () => {
    const runs = [run(1, 10), run(2, 12)];
    expect(recommend(runs, { cores: 4, totalMemoryBytes: 16 * GiB }).maxConcurrentRenders).toBe(1);
    expect(recommend(runs, { cores: 8, totalMemoryBytes: 16 * GiB }).maxConcurrentRenders).toBe(2);
    expect(recommend(runs, { cores: 32, totalMemoryBytes: 128 * GiB }).maxConcurrentRenders).toBe(6);
  });

  it("leaves out runs that used more than 75% of memory", () => {
    const runs = [run(1, 10, 2 * GiB), run(2, 20, 7 * GiB)];
    expect(recommend(runs, { cores: 8, totalMemoryBytes: 8 * GiB }).workers).toBe(1);
  });

  it("recommends one worker on machines with 4 GB or less", () => {
    const result = recommend([run(1, 10), run(2, 20)], { cores: 4, totalMemoryBytes: 4 * GiB });
    expect(result).toMatchObject({ workers: 1, maxConcurrentRenders: 1 });
    expect(result.reasons[0]).toMatch(/4 GB or less/);
  });

  it("falls back to 1 and 1 with nothing measured", () => {
    expect(recommend([], { cores: 2, totalMemoryBytes: 8 * GiB })).toMatchObject({ workers: 1, maxConcurrentRenders: 1 });
  });
});
