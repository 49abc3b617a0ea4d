/**
 * `compose init` writes a project a user can render at once: after `npm install` (here: the
 * packages its package.json names, copied from this repository's node_modules, since tests have
 * no network) it lints clean and renders with no network, its text drawn in the template's own
 * fonts. A folder that is not empty is refused, unless it holds a project, which gets AGENTS.md only.
 */
import { cp, mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { limited, lines, RENDER_HOOK_TIMEOUT_MS, runCli, type CliResult } from "../support/cli.js";
import { ffprobe, videoStream } from "../support/media.js";
import { createProject, REPO_ROOT, type TempProject } from "../support/project.js";

const TEMPLATES = ["blank", "chart", "lower-third", "slides", "title-card"];
/** Rendered whole; the others render their first six frames. */
const WHOLE = "blank";
const AGENTS_SOURCE = join(REPO_ROOT, "packages/cli/templates/AGENTS.md");

interface Made {
  init: CliResult;
  lint: CliResult;
  render: CliResult;
  dependencies: Record<string, string>;
}

let root: TempProject;
const made = new Map<string, Made>();

/** What `npm install` would do offline: each package the project names, copied (not linked) from the repository's node_modules at that very version. */
async function installFromRepository(dir: string, dependencies: Record<string, string>): Promise<void> {
  for (const [name, version] of Object.entries(dependencies)) {
    const source = join(REPO_ROOT, "node_modules", name);
    const installed = (JSON.parse(await readFile(join(source, "package.json"), "utf8")) as { version: string }).version;
    if (installed !== version)
      throw new Error(`the template names ${name}@${version}, the repository has ${installed}: add it as a devDependency at that version`);
    await cp(source, join(dir, "node_modules", name), { recursive: true });
  }
}

beforeAll(async () => {
  root = await createProject({}, { prefix: "compose-init-" });
  await limited(
    2,
    TEMPLATES.map((template) => async () => {
      const dir = root.path(template);
      // The default template goes into the default directory: the current one.
      await mkdir(dir);
      const init = await runCli(template === "blank" ? ["init"] : ["init", "--template", template], { cwd: dir });
      const { dependencies } = JSON.parse(await readFile(join(dir, "package.json"), "utf8")) as { dependencies: Record<string, string> };
      await installFromRepository(dir, dependencies);
      const lint = await runCli(["lint", "."], { cwd: dir });
      const part = template === WHOLE ? [] : ["--frames", "0-5"];
      const render = await runCli(["render", ".", "--quality", "draft", "--network", "none", "-o", "out.mp4", ...part], { cwd: dir, timeoutMs: 240_000 });
      made.set(template, { init, lint, render, dependencies });
    }),
  );
}, RENDER_HOOK_TIMEOUT_MS);

afterAll(async () => {
  await root?.remove();
});

describe("compose init --template <name>", () => {
  it.each(TEMPLATES)("%s: writes the template, a package.json, a .gitignore and AGENTS.md, and says what to run next", async (template) => {
    const { init } = made.get(template)!;
    expect(init.code, init.stderr).toBe(0);
    const dir = root.path(template);
    expect(lines(init.stdout)).toEqual(
      expect.arrayContaining(["  index.html", "  package.json", "  .gitignore", "  AGENTS.md", "  npm install", "  npm run render"]),
    );
    // Written into the current directory: no cd to suggest.
    expect(init.stdout).not.toContain("cd ");
    const pkg = JSON.parse(await readFile(join(dir, "package.json"), "utf8")) as { name: string; scripts: Record<string, string> };
    expect(pkg.name).toBe(template);
    expect(pkg.scripts).toEqual({ render: "compose render .", lint: "compose lint .", preview: "compose preview ." });
    expect(lines(await readFile(join(dir, ".gitignore"), "utf8")).sort()).toEqual(["node_modules/", "renders/"]);
    expect(await readFile(join(dir, "AGENTS.md"), "utf8")).toBe(await readFile(AGENTS_SOURCE, "utf8"));
  });

  it.each(TEMPLATES)("%s: names exact versions of the packages it uses, its fonts among them", (template) => {
    const { dependencies } = made.get(template)!;
    expect(Object.keys(dependencies).some((name) => /^@fontsource(-variable)?\//.test(name))).toBe(true);
    for (const version of Object.values(dependencies)) expect(version).toMatch(/^\d+\.\d+\.\d+$/);
    if (template !== "blank") expect(dependencies.gsap).toBe("3.15.0");
  });

  it.each(TEMPLATES)("%s: lints with no error and no warning", (template) => {
    const { lint } = made.get(template)!;
    expect(lint.code, lint.stdout).toBe(0);
    expect(lines(lint.stdout).at(-1)).toMatch(/^0 errors, 0 warnings in \d+ files?$/);
  });

  it.each(TEMPLATES)("%s: renders with no network, its text in its own fonts, without a warning", async (template) => {
    const { render } = made.get(template)!;
    expect(render.code, render.stderr).toBe(0);
    expect(render.stderr).not.toContain("font-fallback");
    expect(render.stderr).not.toContain("warning");
    const probe = await ffprobe(root.path(template, "out.mp4"), { countFrames: true });
    const video = videoStream(probe);
    expect([video.width, video.height]).toEqual([1920, 1080]);
    expect(video.r_frame_rate).toBe("30/1");
    expect(Number(video.nb_read_frames)).toBe(template === WHOLE ? 90 : 6);
  });

  it("title-card: mixes its music into the render", async () => {
    const probe = await ffprobe(root.path("title-card", "out.mp4"));
    expect(probe.streams.map((stream) => stream.codec_type)).toContain("audio");
  });
});

describe("compose init, refusing and listing", () => {
  it("makes a directory that does not exist and names the cd to it", async () => {
    const project = await createProject({});
    try {
      const run = await runCli(["init", "new video", "--template", "blank"], { cwd: project.dir });
      expect(run.code, run.stderr).toBe(0);
      expect(lines(run.stdout)).toContain("  cd 'new video'");
      expect((await readdir(project.path("new video"))).sort()).toEqual([".gitignore", "AGENTS.md", "index.html", "package.json"]);
      expect(JSON.parse(await readFile(project.path("new video", "package.json"), "utf8"))).toMatchObject({ name: "new-video" });
    } finally {
      await project.remove();
    }
  });

  it("refuses a directory that holds other files, in one line, writing nothing", async () => {
    const project = await createProject({ "notes.txt": "mine" });
    try {
      const run = await runCli(["init", "."], { cwd: project.dir });
      expect(run.code).toBe(2);
      expect(lines(run.stderr)).toEqual([expect.stringMatching(/^error: \. is not empty: give a new or empty directory/)]);
      expect(await readdir(project.dir)).toEqual(["notes.txt"]);
    } finally {
      await project.remove();
    }
  });

  it("gives a folder that holds a project its AGENTS.md only, and keeps one it has", async () => {
    const project = await createProject({ "index.html": "<!doctype html>" });
    try {
      const first = await runCli(["init", project.dir]);
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout).toContain("holds a project already (index.html): wrote AGENTS.md only");
      expect((await readdir(project.dir)).sort()).toEqual(["AGENTS.md", "index.html"]);
      expect(await readFile(project.path("index.html"), "utf8")).toBe("<!doctype html>");

      await writeFile(project.path("AGENTS.md"), "our own notes");
      const second = await runCli(["init", project.dir]);
      expect(second.code, second.stderr).toBe(0);
      expect(second.stdout).toContain("nothing written");
      expect(await readFile(project.path("AGENTS.md"), "utf8")).toBe("our own notes");
    } finally {
      await project.remove();
    }
  });

  it("refuses a template for a folder that holds a project", async () => {
    const project = await createProject({ "package.json": "{}" });
    try {
      const run = await runCli(["init", ".", "--template", "chart"], { cwd: project.dir });
      expect(run.code).toBe(2);
      expect(lines(run.stderr)).toEqual(["error: . holds a project already (package.json): --template writes a new project, into a new or empty directory"]);
      expect(await readdir(project.dir)).toEqual(["package.json"]);
    } finally {
      await project.remove();
    }
  });

  it("--list shows each template on one line", async () => {
    const run = await runCli(["init", "--list"]);
    expect(run.code, run.stderr).toBe(0);
    const listed = lines(run.stdout);
    expect(listed.map((line) => line.split(/\s+/)[0])).toEqual(TEMPLATES);
    for (const line of listed) expect(line).toMatch(/^[a-z-]+ +\S.{20,}$/);
  });

  it("refuses an unknown template in one line that lists the templates, writing nothing", async () => {
    const project = await createProject({});
    try {
      const run = await runCli(["init", "promo", "--template", "poster"], { cwd: project.dir });
      expect(run.code).toBe(2);
      expect(lines(run.stderr)).toEqual([`error: unknown template "poster": choose ${TEMPLATES.join(", ")}`]);
      expect(await readdir(project.dir)).toEqual([]);
    } finally {
      await project.remove();
    }
  });
});
