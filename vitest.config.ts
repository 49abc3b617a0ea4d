import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["packages/*/src/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // The test files share one worker process instead of starting one each (about 0.4 s a file,
    // a minute over the suite); none of them changes process-wide state for the next.
    isolate: false,
    // Two test files at a time on any machine (vitest's default is one fewer than the cores: one,
    // on two): most of a file's time is spent waiting on browsers and ffmpeg it starts, which the
    // other file's work fills, and every test waits for conditions, not for times.
    maxWorkers: 2,
    minWorkers: 1,
  },
});
