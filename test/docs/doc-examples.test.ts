/**
 * Every `html` example in docs/compositions.md is a whole composition that lints clean and renders
 * without a warning. A block preceded by `<!-- file: NAME -->` is another file of the next
 * example (a sub-composition, data); the media the examples use are generated.
 */
import { readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { limited, render, runCli, type CliResult, RENDER_HOOK_TIMEOUT_MS } from "../support/cli.js";
import { createProject, REPO_ROOT, type TempProject } from "../support/project.js";
import { createCacheDir, generateMedia, MEDIA_FILES, type MediaName } from "../support/test-media.js";

interface Example {
  /** The heading the example stands under, and its place among that heading's examples. */
  name: string;
  files: Record<string, string>;
}

/** The examples of a Markdown page, in order. */
function examplesOf(markdown: string): Example[] {
  const examples: Example[] = [];
  let heading = "";
  let pending: Record<string, string> = {};
  let count = 0;
  const block = /^(?:<!-- file: (\S+) -->\n)?```(html|json)\n([\s\S]*?)^```$|^#{2,3} (.+)$/gm;
  for (const match of markdown.matchAll(block)) {
    const [, file, , body, title] = match;
    if (title !== undefined) {
      heading = title;
      count = 0;
      continue;
    }
    if (file !== undefined) {
      pending[file] = body!;
      continue;
    }
    examples.push({ name: `${heading} #${++count}`, files: { ...pending, "index.html": body! } });
    pending = {};
  }
  return examples;
}

const EXAMPLES = examplesOf(readFileSync(join(REPO_ROOT, "docs/compositions.md"), "utf8"));

interface Outcome {
  lint: CliResult;
  render: CliResult;
}

const outcomes = new Map<string, Outcome>();
const projects: TempProject[] = [];
let cache: Awaited<ReturnType<typeof createCacheDir>>;

beforeAll(async () => {
  cache = await createCacheDir();
  await limited(
    2,
    EXAMPLES.map((example) => async () => {
      const text = Object.values(example.files).join("\n");
      const project = await createProject({}, { gsap: text.includes("gsap.min.js"), prefix: "compose-doc-example-" });
      projects.push(project);
      for (const [name, content] of Object.entries(example.files)) {
        await mkdir(dirname(project.path(name)), { recursive: true });
        await writeFile(project.path(name), content);
      }
      const media = (Object.keys(MEDIA_FILES) as MediaName[]).filter((name) => text.includes(MEDIA_FILES[name]));
      await generateMedia(project.dir, media);
      const lint = await runCli(["lint", project.dir]);
      const rendered = await render([project.dir, "--quality", "draft", "--output", project.path("out.mp4")], { env: cache.env });
      outcomes.set(example.name, { lint, render: rendered });
    }),
  );
}, RENDER_HOOK_TIMEOUT_MS);

afterAll(async () => {
  await Promise.all(projects.map((project) => project.remove()));
  await cache?.remove();
});

describe("the examples of docs/compositions.md", () => {
  it("are found: one or more under every heading that promises one", () => {
    const headings = new Set(EXAMPLES.map((example) => example.name.replace(/ #\d+$/, "")));
    for (const heading of [
      "The composition element",
      "One history",
      "Variables",
      "Lists and records",
      "Sub-compositions",
      "Assets and paths",
      "Video and audio",
      "Tracks and layering",
      "Crossfade between two clips",
      "Waiting for data",
    ]) {
      expect(headings, heading).toContain(heading);
    }
  });

  it.each(EXAMPLES.map((example) => example.name))("%s lints clean and renders without a warning", (name) => {
    const { lint, render: rendered } = outcomes.get(name)!;
    expect(lint.stdout + lint.stderr, "compose lint").toMatch(/0 errors, 0 warnings/);
    expect(rendered.stderr, "compose render").toBe("");
    expect(rendered.code).toBe(0);
  });
});
