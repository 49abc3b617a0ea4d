import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["packages/*/src/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // The test files share one worker process instead of starting one each (about 0.4 s a file,
    // a minute over the suite); none of them changes process-wide state for the next.
    isolate: false,
  },
});
