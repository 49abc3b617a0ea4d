import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["packages/*/src/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // A test file spends most of its time waiting on a browser or ffmpeg, so two files at once fit
    // on two cores (vitest's default, one fewer than the cores, would run them one at a time there).
    maxWorkers: Math.max(2, availableParallelism()),
    minWorkers: 1,
  },
});
