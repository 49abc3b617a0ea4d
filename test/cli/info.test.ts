/**
 * `compose info` tells what a composition is without rendering it: its size, duration and where
 * the duration comes from (the source, or a page loaded as render loads it when only a running
 * page knows), variables, sub-compositions and their instances, media, fonts and how each
 * resolves, the network it reaches for and what the policy does there, and lint's counts. `--json`
 * is one object that validates against the published schema; a folder lists its compositions.
 */
import { cp, mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lines, runCli, type CliResult } from "../support/cli.js";
import { compositionHtml, createProject, REPO_ROOT, type TempProject } from "../support/project.js";
import { createCacheDir, generateMedia } from "../support/test-media.js";

const schema = JSON.parse(await readFile(join(REPO_ROOT, "docs/schemas/info.schema.json"), "utf8")) as object;
const validate = new Ajv2020({ strict: false }).compile(schema);

const GSAP = join(REPO_ROOT, "node_modules/gsap");
const { version: gsapVersion } = JSON.parse(await readFile(join(GSAP, "package.json"), "utf8")) as { version: string };
const CDN_GSAP = `https://cdn.jsdelivr.net/npm/gsap@${gsapVersion}/dist/gsap.min.js`;
const REMOTE = "https://example.com/lib/widget.js";

/** A card embedded twice, each instance with its own title. */
const CARD = compositionHtml({
  id: "card",
  width: 140,
  height: 60,
  duration: 1,
  variables: [{ id: "title", type: "string", label: "Title", default: "Card" }],
});

const FACTS = compositionHtml({
  id: "facts",
  duration: 2,
  backdrop: "#101828",
  variables: [
    { id: "title", type: "string", label: "Title", default: "Hello" },
    { id: "speed", type: "number", label: "Speed", default: 1, min: 0 },
  ],
  css: `p { font-family: "Space Mono", "Nope Sans", sans-serif; } h1 { font: bold 20px Arial, serif; }`,
  body: `<h1>Title</h1><p>Body</p>
<div data-composition-id="card-1" data-composition-src="card.html" data-start="0" data-variable-values='{"title": "First"}'></div>
<div data-composition-id="card-2" data-composition-src="card.html" data-start="card-1" data-variable-values='{"title": "Second"}'></div>`,
  after: `<script src="${CDN_GSAP}"></script><script src="${REMOTE}"></script>`,
});

/** Clips only: the source gives the duration, the end of the last one. */
const CLIPS = compositionHtml({
  id: "clips",
  backdrop: "#000",
  body: `<div data-start="0" data-duration="1.5"></div><div data-start="0.5" data-duration="0.5"></div>`,
});

/** An audio file without data-duration: its length, which the page's probe tells, ends the composition. */
const MEDIA = compositionHtml({ id: "media", backdrop: "#000", body: `<audio id="tone" src="media/tone.wav" data-start="0.5"></audio>` });

/** A GSAP timeline as long as a variable says, and text in a family nobody has: only a page knows either. */
const TIMELINE = compositionHtml({
  id: "timeline",
  backdrop: "#000",
  variables: [{ id: "seconds", type: "number", label: "Seconds", default: 0.8 }],
  body: `<div id="box" style="position: absolute; width: 40px; height: 40px; background: #f80; font-family: 'Nope Sans'">x</div>`,
  after: `<script src="gsap.min.js"></script><script>
  const { seconds = 0.8 } = __compose.getVariables();
  const tl = gsap.timeline({ paused: true });
  tl.to("#box", { x: 280, duration: seconds, ease: "none" });
  window.__timelines = { timeline: tl };
</script>`,
});

/** An audio element whose src a script sets from a variable: only a page knows it. */
const SCRIPTED_SRC = compositionHtml({
  id: "scripted",
  duration: 1,
  backdrop: "#000",
  variables: [{ id: "track", type: "string", label: "Track", default: "media/tone.wav" }],
  body: `<audio id="music" data-start="0" data-duration="1"></audio>`,
  after: `<script>document.getElementById("music").src = __compose.getVariables().track ?? "media/tone.wav";</script>`,
});

let project: TempProject;
let folder: TempProject;
let cache: Awaited<ReturnType<typeof createCacheDir>>;

beforeAll(async () => {
  cache = await createCacheDir();
  project = await createProject(
    { "index.html": FACTS, "card.html": CARD, "clips.html": CLIPS, "media.html": MEDIA, "timeline.html": TIMELINE, "scripted.html": SCRIPTED_SRC },
    { gsap: true, prefix: "compose-info-" },
  );
  await generateMedia(project.dir, ["tone", "stereo"]);
  await cp(join(REPO_ROOT, "node_modules/@fontsource/space-mono"), project.path("node_modules/@fontsource/space-mono"), { recursive: true });
  await mkdir(project.path("node_modules/gsap/dist"), { recursive: true });
  await cp(join(GSAP, "package.json"), project.path("node_modules/gsap/package.json"));
  await cp(join(GSAP, "dist/gsap.min.js"), project.path("node_modules/gsap/dist/gsap.min.js"));
  folder = await createProject({
    "intro.html": compositionHtml({ id: "intro", duration: 1 }),
    "scenes/outro.html": CLIPS,
    "notes.html": "<p>not a composition</p>",
  });
});

afterAll(async () => {
  await project?.remove();
  await folder?.remove();
  await cache?.remove();
});

/** Runs of `compose info` by their arguments: the tests that ask the same question share one run. */
const runs = new Map<string, Promise<CliResult>>();

/** `compose info <args> --json` in the project, its output checked against the published schema. */
async function info(args: string[]): Promise<{ run: CliResult; facts: any }> {
  const key = JSON.stringify(args);
  if (!runs.has(key)) runs.set(key, runCli(["info", ...args, "--json"], { cwd: project.dir, env: cache.env }));
  const run = await runs.get(key)!;
  expect(run.code, run.stderr).toBe(0);
  const facts = JSON.parse(run.stdout);
  expect(validate(facts), JSON.stringify(validate.errors)).toBe(true);
  return { run, facts };
}

describe("compose info of a composition whose source settles it", () => {
  it("tells its size and duration from the source, without a page", async () => {
    const { facts } = await info(["."]);
    expect(facts).toMatchObject({
      kind: "composition",
      file: "index.html",
      id: "facts",
      width: 320,
      height: 180,
      duration: 2,
      durationSource: "data-duration",
    });
    expect(facts.page.loaded).toBe(false);
  });

  it("tells each variable with the value the page gets, and what --variables changes", async () => {
    expect((await info(["."])).facts.variables.map((variable: any) => [variable.id, variable.type, variable.value])).toEqual([
      ["title", "string", "Hello"],
      ["speed", "number", 1],
    ]);
    const { facts } = await info([".", "--variables", '{"title": "Launch", "speeed": 2}']);
    expect(facts.variables.map((variable: any) => variable.value)).toEqual(["Launch", 1]);
    expect(facts.variableIssues).toEqual([{ code: "undeclared", variable: "speeed", message: expect.stringContaining('did you mean "speed"') }]);
  });

  it("tells the sub-compositions with their instances and values", async () => {
    const { facts } = await info(["."]);
    expect(facts.subCompositions).toEqual([
      {
        file: "card.html",
        id: "card",
        duration: 1,
        variables: ["title"],
        instances: [
          { id: "card-1", in: "index.html", start: 0, duration: 1, values: { title: "First" } },
          { id: "card-2", in: "index.html", start: 1, duration: 1, values: { title: "Second" } },
        ],
      },
    ]);
  });

  it("tells how each font family resolves: a package, a default name, a generic one, none", async () => {
    const { facts } = await info(["."]);
    expect(facts.fonts).toEqual(
      expect.arrayContaining([
        { family: "Space Mono", source: "package", drawnWith: "Space Mono" },
        { family: "Nope Sans", source: "none", drawnWith: null },
        { family: "sans-serif", source: "generic", drawnWith: "Inter" },
        { family: "Arial", source: "default", drawnWith: "Arimo" },
        { family: "serif", source: "generic", drawnWith: "Tinos" },
      ]),
    );
  });

  it("tells what the network policy does with each remote URL: a CDN file the project serves, a remote one refused under --network none", async () => {
    const none = (await info([".", "--network", "none"])).facts.network;
    expect(none.mode).toBe("none");
    expect(none.urls).toEqual([
      { url: CDN_GSAP, file: "index.html", what: "<script> src", answer: "project", reason: null },
      { url: REMOTE, file: "index.html", what: "<script> src", answer: "refused", reason: "only the project is allowed" },
    ]);
    const allowed = (await info([".", "--network", "none", "--allow-host", "example.com"])).facts.network.urls;
    expect(allowed.map((url: any) => url.answer)).toEqual(["project", "allowed"]);
  });

  it("counts lint's errors and warnings as compose lint does", async () => {
    const lint = await runCli(["lint", ".", "--json", "--network", "none"], { cwd: project.dir, env: cache.env });
    const { errors, warnings } = JSON.parse(lint.stdout) as { errors: number; warnings: number };
    // The unknown family and the remote script refused under none: the counts are not trivially 0.
    expect(errors + warnings).toBeGreaterThan(0);
    expect((await info([".", "--network", "none"])).facts.lint).toEqual({ errors, warnings });
  });

  it("prints the same as a compact summary a person reads", async () => {
    const run = await runCli(["info", "."], { cwd: project.dir, env: cache.env });
    expect(run.code, run.stderr).toBe(0);
    const text = lines(run.stdout);
    expect(text).toContain("composition facts in index.html");
    expect(text).toContain("duration    2 s (data-duration)");
    expect(text).toContain('instances   card-1: card.html at 0 s for 1 s {"title":"First"}');
    expect(text).toContain("            Nope Sans: no font of this name");
    expect(text.some((line) => /^lint {8}\d+ errors?, \d+ warnings?/.test(line))).toBe(true);
  });
});

describe("compose info of a duration only a page settles", () => {
  it("gives the clips' end from the source, which a page loaded with --page confirms", async () => {
    const { facts } = await info(["clips.html"]);
    expect(facts).toMatchObject({ duration: 1.5, durationSource: "clips", page: { loaded: false } });
    const loaded = (await info(["clips.html", "--page"])).facts;
    expect(loaded).toMatchObject({ duration: 1.5, durationSource: "clips", page: { loaded: true, reason: "asked for with --page" } });
  });

  it("loads the page for a media file's length, and tells the media as probed", async () => {
    const { facts } = await info(["media.html"]);
    expect(facts).toMatchObject({ duration: 1.5, durationSource: "clips", page: { loaded: true } });
    expect(facts.page.reason).toContain('audio "tone" plays for its file\'s length');
    expect(facts.media).toEqual([{ kind: "audio", id: "tone", src: "media/tone.wav", start: 0.5, duration: 1, audio: true }]);
  });

  it("loads the page for a GSAP timeline, whose length a number variable changes", async () => {
    const { facts } = await info(["timeline.html"]);
    expect(facts).toMatchObject({ duration: 0.8, durationSource: "timelines", page: { loaded: true } });
    expect((await info(["timeline.html", "--variables", '{"seconds": 0.5}'])).facts.duration).toBe(0.5);
  });

  it("takes the fonts the page drew: a family no font of its name drew, with the font that did", async () => {
    const { facts } = await info(["timeline.html"]);
    const nope = facts.fonts.find((font: any) => font.family === "Nope Sans");
    expect(nope.source).toBe("none");
    expect(nope.drawnWith).toEqual(expect.any(String));
    expect(facts.page.warnings.map((warning: any) => warning.code)).toContain("font-fallback");
  });

  it("loads the page for a media src a script sets, which --variables changes", async () => {
    const { facts } = await info(["scripted.html"]);
    expect(facts.page).toMatchObject({ loaded: true, reason: expect.stringContaining("a script sets it") });
    expect(facts.media.map((media: any) => media.src)).toEqual(["media/tone.wav"]);
    const changed = await info(["scripted.html", "--variables", '{"track": "media/stereo.wav"}']);
    expect(changed.facts.media.map((media: any) => media.src)).toEqual(["media/stereo.wav"]);
  });
});

describe("compose info of a folder without an index.html", () => {
  it("lists the compositions in it and one folder down, as the studio does", async () => {
    const run = await runCli(["info", ".", "--json"], { cwd: folder.dir });
    expect(run.code, run.stderr).toBe(0);
    const listing = JSON.parse(run.stdout);
    expect(validate(listing), JSON.stringify(validate.errors)).toBe(true);
    expect(listing).toEqual({
      kind: "folder",
      folder: ".",
      compositions: [
        { file: "intro.html", id: "intro", width: 320, height: 180, duration: 1 },
        { file: "scenes/outro.html", id: "clips", width: 320, height: 180, duration: 1.5 },
      ],
    });
    const text = await runCli(["info", "."], { cwd: folder.dir });
    expect(lines(text.stdout)).toEqual([
      ". has no index.html; 2 compositions in it:",
      "  intro.html         intro  320x180  1 s",
      "  scenes/outro.html  clips  320x180  1.5 s",
    ]);
  });
});
