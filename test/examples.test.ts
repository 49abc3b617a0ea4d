/**
 * The bundled examples lint clean and render without a warning, as a new user first runs them;
 * the teaser's music fades out over its last second.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { limited, render, runCli, type CliResult, RENDER_HOOK_TIMEOUT_MS } from "./support/cli.js";
import { ffprobe } from "./support/media.js";
import { REPO_ROOT } from "./support/project.js";
import { audioLevel } from "./support/test-media.js";

const EXAMPLES = readdirSync(join(REPO_ROOT, "examples"));
const results = new Map<string, { lint: CliResult; render: CliResult }>();
let outputs: string;

beforeAll(async () => {
  outputs = await mkdtemp(join(tmpdir(), "compose-examples-"));
  await limited(
    2,
    EXAMPLES.map((name) => async () => {
      const dir = join(REPO_ROOT, "examples", name);
      const lint = await runCli(["lint", dir]);
      const rendered = await render([dir, "--quality", "draft", "-o", join(outputs, `${name}.mp4`)]);
      results.set(name, { lint, render: rendered });
    }),
  );
}, RENDER_HOOK_TIMEOUT_MS);
afterAll(() => rm(outputs, { recursive: true, force: true }));

describe("examples/", () => {
  it("holds the hello, lower third, teaser, chart and scenes examples", () => {
    expect(EXAMPLES.sort()).toEqual(["chart", "hello", "lower-third", "scenes", "teaser"]);
  });

  it.each(EXAMPLES)("%s lints clean and renders without a warning", (name) => {
    const { lint, render: rendered } = results.get(name)!;
    expect(lint.stdout).toMatch(/^0 errors, 0 warnings/m);
    expect(lint.code).toBe(0);
    expect(rendered.stderr).toBe("");
    expect(rendered.code).toBe(0);
  });

  it("the teaser runs 4.8 s with its music, which fades out over the last second", async () => {
    const file = join(outputs, "teaser.mp4");
    expect(Number((await ffprobe(file)).format.duration)).toBeCloseTo(4.8, 1);
    const full = await audioLevel(file, 1, 3);
    const fading = await audioLevel(file, 4.3, 4.6);
    expect(full.mean).toBeGreaterThan(-40);
    expect(full.mean - fading.mean).toBeGreaterThan(6);
  });
});
