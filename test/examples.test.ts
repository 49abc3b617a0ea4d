/**
 * The bundled examples lint clean and render without a warning, as a new user first runs them;
 * the teaser's music fades out over its last second.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { limited, render, runCli, type CliResult, RENDER_HOOK_TIMEOUT_MS } from "./support/cli.js";
import { ffprobe } from "./support/media.js";
import { REPO_ROOT } from "./support/project.js";
import { audioLevel } from "./support/test-media.js";

/** The example compositions; examples/player is a web page that plays one (test/player/player-example.test.ts). */
const EXAMPLES = readdirSync(join(REPO_ROOT, "examples")).filter((name) => name !== "player");
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

describe("libraries the examples ship", () => {
  /** Every local `<script src>` of every example's HTML files, with the comment before it. */
  const scripts = EXAMPLES.flatMap((name) => {
    const dir = join(REPO_ROOT, "examples", name);
    return readdirSync(dir, { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".html"))
      .flatMap((file) =>
        [...readFileSync(join(dir, file), "utf8").matchAll(/(?:<!--(.*?)-->\s*)?<script src="(?!https?:)([^"]+)"/g)].map((match) => ({
          example: name,
          file: join(dirname(join(dir, file)), match[2]!),
          src: match[2]!,
          comment: match[1]?.trim(),
        })),
      );
  });

  it("exist", () => {
    expect(scripts.length).toBeGreaterThan(0);
  });

  it("each say where the copy came from and its version, and are that copy", () => {
    for (const script of scripts) {
      const said = new RegExp(
        `^${script.src.replace(/\./g, "\\.")}: (\\S+) (\\d+\\.\\d+\\.\\d+), copied from (node_modules/(\\S+?)/\\S+) \\(npm \\4@\\2\\)$`,
      ).exec(script.comment ?? "");
      expect(said, `${script.example}: ${script.src} has no comment naming its source and version`).not.toBeNull();
      const [, library, version, source, pkg] = said!;
      const shipped = readFileSync(script.file, "utf8");
      // The file's own banner names the same library and version.
      expect(shipped.slice(0, 200)).toContain(`${library} ${version}`);
      const installed = JSON.parse(readFileSync(join(REPO_ROOT, "node_modules", pkg!, "package.json"), "utf8")) as { version: string };
      if (installed.version === version) expect(shipped === readFileSync(join(REPO_ROOT, source!), "utf8"), `${script.src} differs from ${source}`).toBe(true);
    }
  });
});
