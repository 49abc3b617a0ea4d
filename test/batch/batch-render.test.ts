/**
 * `compose render --batch`: rows in, one output a row, each exactly what a render of that row
 * alone makes; every row checked before the first renders; a failed row one failed row; a stop
 * leaves the finished rows whole; --resume renders only what is not already made.
 */
import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lines, render, RENDER_HOOK_TIMEOUT_MS, startCli, taggedProcesses, type CliResult } from "../support/cli.js";
import { decodedFrameMd5s, ffprobe } from "../support/media.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";
import { createCacheDir, generateMedia } from "../support/test-media.js";

const VARIABLES = [
  { id: "title", type: "string", label: "Title", default: "First" },
  { id: "accent", type: "color", label: "Accent", default: "#ff0000" },
  {
    id: "side",
    type: "enum",
    label: "Side",
    default: "left",
    options: [
      { value: "left", label: "Left" },
      { value: "right", label: "Right" },
    ],
  },
  { id: "clip", type: "string", label: "Video", default: "media/colours.mp4" },
  { id: "length", type: "number", label: "Length", default: 0.5, min: 0.2, max: 1 },
];

/** Text, a colour, a layout an enum moves, a video's src and a clip's data-duration set by a script from a number: each from a variable. */
const CARD = compositionHtml({
  id: "card",
  variables: VARIABLES,
  css: `#box { position: absolute; top: 20px; width: 80px; height: 60px; }
    #title { position: absolute; top: 100px; left: 20px; font: 24px sans-serif; color: white; }
    video { position: absolute; top: 20px; left: 120px; width: 80px; height: 45px; }`,
  backdrop: "#202020",
  body: `<div id="box"></div><p id="title"></p>
    <video id="clip" data-start="0" data-track-index="1" muted></video>
    <audio id="tone" data-start="0" data-track-index="2" src="media/tone.wav"></audio>`,
  after: `<script>
    const { title = "First", accent = "#ff0000", side = "left", clip = "media/colours.mp4", length = 0.5 } = __compose.getVariables();
    document.getElementById("box").style.background = accent;
    document.getElementById("box").style.left = side === "left" ? "20px" : "220px";
    document.getElementById("title").textContent = title;
    const video = document.getElementById("clip");
    video.src = clip;
    video.dataset.duration = String(length);
    document.getElementById("tone").dataset.duration = String(length);
  </script>`,
});

const ROWS = [
  {},
  { title: "Second", accent: "#00ff00", side: "right" },
  { clip: "media/other.mp4", length: 0.8 },
  { title: "Fourth", length: 0.3, side: "right" },
];

/** A title and nothing else: for what a batch does with its rows whatever they draw (names, resume, one browser), at a fraction of a media row's cost. */
const TITLE = compositionHtml({
  id: "title",
  variables: [VARIABLES[0]!],
  duration: 0.2,
  css: `#title { position: absolute; top: 100px; left: 20px; font: 24px sans-serif; color: white; }`,
  backdrop: "#202020",
  body: `<p id="title"></p>`,
  after: `<script>document.getElementById("title").textContent = __compose.getVariables().title ?? "First";</script>`,
});

let project: TempProject;
let plain: TempProject;
let cache: Awaited<ReturnType<typeof createCacheDir>>;
const runIn = (where: TempProject, args: string[], timeoutMs?: number) =>
  render([where.dir, "--quality", "draft", ...args], { cwd: where.dir, env: cache.env, ...(timeoutMs ? { timeoutMs } : {}) });
const run = (args: string[], timeoutMs?: number) => runIn(project, args, timeoutMs);

interface WatchedRun {
  result: CliResult;
  /** The browsers' main processes (no --type=) seen while it ran. */
  browsers: Set<number>;
  /** The compose processes seen while it ran, each with its parent. */
  composes: Map<number, number>;
}

/**
 * `runIn`, looking at the processes the run starts while it runs: every 100 ms, as a browser or a
 * compose of a row's own would live for the row, many times longer.
 */
async function watchedRunIn(where: TempProject, args: string[]): Promise<WatchedRun> {
  const run = startCli(["render", where.dir, "--quality", "draft", ...args], { cwd: where.dir, env: cache.env });
  const browsers = new Set<number>();
  const composes = new Map<number, number>();
  let ended = false;
  const watching = (async () => {
    while (!ended) {
      for (const info of taggedProcesses(run.tag)) {
        if (/chromium/.test(info.cmdline) && !info.cmdline.includes("--type=")) browsers.add(info.pid);
        if (info.cmdline.includes("compose.js")) composes.set(info.pid, info.ppid);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  const result = await run.result;
  ended = true;
  await watching;
  return { result, browsers, composes };
}

beforeAll(async () => {
  project = await createProject({ "index.html": CARD });
  plain = await createProject({ "index.html": TITLE });
  await generateMedia(project.dir, ["colours", "other", "tone"]);
  cache = await createCacheDir();
}, RENDER_HOOK_TIMEOUT_MS);

afterAll(async () => {
  await project?.remove();
  await plain?.remove();
  await cache?.remove();
});

describe("compose render --batch", () => {
  it("renders each row exactly as a render of that row alone, frames and audio", async () => {
    await writeFile(project.path("rows.json"), JSON.stringify(ROWS, null, 2));
    const batch = await run(["--batch", "rows.json", "-o", "exact/{index}.mp4", "--batch-concurrency", "2"], 120_000);
    expect(batch.code, batch.stderr).toBe(0);
    expect(lines(batch.stdout).filter((line) => /^row \d/.test(line))).toHaveLength(ROWS.length);
    const durations: number[] = [];
    for (const [index, row] of ROWS.entries()) {
      const single = await run(["--variables", JSON.stringify(row), "-o", `single/${index + 1}.mp4`]);
      expect(single.code, single.stderr).toBe(0);
      const [fromBatch, alone] = await Promise.all([
        decodedFrameMd5s(project.path("exact", `${index + 1}.mp4`)),
        decodedFrameMd5s(project.path("single", `${index + 1}.mp4`)),
      ]);
      expect(fromBatch.length).toBeGreaterThan(0);
      expect(fromBatch, `row ${index + 1}`).toEqual(alone);
      durations.push(Number((await ffprobe(project.path("exact", `${index + 1}.mp4`))).format.duration));
    }
    // The number variable set each row's length through a script-set data-duration.
    expect(durations.map((duration) => Math.round(duration * 10) / 10)).toEqual([0.5, 0.5, 0.8, 0.3]);
  }, 240_000);

  it("types CSV cells by the declarations; a cell that is not its type fails its row only, named with its line", async () => {
    await writeFile(project.path("rows.csv"), "title,length,side\nOne,0.4,left\nTwo,long,right\nThree,,right\n");
    const result = await run(["--batch", "rows.csv", "-o", "csv/{index}-{title}.{ext}"]);
    expect(result.code).toBe(1);
    expect((await readdir(project.path("csv"))).filter((name) => !name.startsWith(".")).sort()).toEqual(["1-One.mp4", "3-Three.mp4"]);
    expect(lines(result.stderr)).toContain(`error: row 2 (line 3): [invalid-variables] "length" must be a number, got "long"`);
    expect(lines(result.stderr)).toContain("Batch: 2 of 3 rows rendered in " + /in ([\d.]+) s/.exec(result.stderr)![1] + " s, 1 failed");
    expect(Number((await ffprobe(project.path("csv", "3-Three.mp4"))).format.duration)).toBeCloseTo(0.5, 1);
  }, 120_000);

  it("with --strict-variables, refuses the batch before anything renders, listing every refused row", async () => {
    await writeFile(project.path("strict.jsonl"), `{"title": "ok"}\n{"side": "up"}\n\n{"colour": "#000000"}\n`);
    const result = await run(["--batch", "strict.jsonl", "--strict-variables", "-o", "strict/{index}.mp4"]);
    expect(result.code).toBe(2);
    expect(lines(result.stderr)).toEqual([
      "error: 2 rows refused by --strict-variables, so nothing rendered:",
      `  row 2 (line 2): "side" must be one of "left", "right", got "up"`,
      `  row 3 (line 4): "colour" is not a declared variable (declared: title, accent, side, clip, length)`,
    ]);
    await expect(stat(project.path("strict"))).rejects.toThrow();
  });

  it("refuses two rows that would write one file, naming both, before anything renders", async () => {
    await writeFile(project.path("same.json"), JSON.stringify({ rows: [{ title: "A" }, { title: "B" }, { title: "A" }] }));
    const result = await run(["--batch", "same.json", "-o", "same/{title}.mp4"]);
    expect(result.code).toBe(2);
    expect(lines(result.stderr)).toEqual(["error: row 1 and row 3 would both write same/A.mp4: put {index} or a variable that differs in --output"]);
    await expect(stat(project.path("same"))).rejects.toThrow();
  });

  it("names the default outputs renders/<name>/<index>.<ext>, zero-padded to the row count", async () => {
    await writeFile(plain.path("many.json"), JSON.stringify(Array.from({ length: 10 }, (_, index) => ({ title: `T${index}` }))));
    const result = await runIn(plain, ["--batch", "many.json", "--batch-concurrency", "2"], 120_000);
    expect(result.code, result.stderr).toBe(0);
    const name = plain.dir.split("/").at(-1)!;
    expect((await readdir(plain.path("renders", name))).filter((file) => !file.startsWith(".")).sort()).toEqual(
      ["01", "02", "03", "04", "05", "06", "07", "08", "09", "10"].map((index) => `${index}.mp4`),
    );
  }, 120_000);

  it("with --fail-fast, stops at the first failed row", async () => {
    await writeFile(project.path("fail.json"), JSON.stringify([{ title: "ok" }, { clip: "media/missing.mp4" }, { title: "never" }]));
    const result = await run(["--batch", "fail.json", "--fail-fast", "--batch-concurrency", "1", "-o", "fail/{index}.mp4"]);
    expect(result.code).toBe(1);
    expect((await readdir(project.path("fail"))).filter((file) => !file.startsWith("."))).toEqual(["1.mp4"]);
    expect(lines(result.stderr).find((line) => line.startsWith("Batch:"))).toMatch(
      /^Batch: 1 of 3 rows rendered in [\d.]+ s, 1 failed, 1 not rendered \(--fail-fast\)$/,
    );
    expect(lines(result.stderr)).toContainEqual(expect.stringMatching(/^ {2}row 2: \[(missing-asset|media-error)\] /));
  });

  describe("three rows, one at a time, with --resume", () => {
    const rows = [{ title: "R1" }, { title: "R2" }, { title: "R3" }];
    const args = ["--batch", "resume.json", "--resume", "-o", "resume/{index}.mp4", "--batch-concurrency", "1"];
    // The first run serves both tests: what it started, and what the runs after it skip.
    let first: WatchedRun;
    beforeAll(async () => {
      await writeFile(plain.path("resume.json"), JSON.stringify(rows));
      first = await watchedRunIn(plain, args);
    }, RENDER_HOOK_TIMEOUT_MS);

    it("renders its rows in one process and one browser, not one of each a row", () => {
      expect(first.result.code, first.result.stderr).toBe(0);
      expect(lines(first.result.stdout).filter((line) => /^row \d: /.test(line))).toHaveLength(3);
      // A browser that could not be handed back in time (a very busy machine) is closed and another launched; one a row would show three.
      expect(first.browsers.size).toBeGreaterThan(0);
      expect(first.browsers.size).toBeLessThanOrEqual(2);
      // A child it spawns shows the parent's command line until it execs (ffmpeg, the browser): not a compose of its own.
      expect([...first.composes].filter(([, parent]) => !first.composes.has(parent))).toHaveLength(1);
    });

    it("renders only the rows whose inputs changed", async () => {
      expect(first.result.code, first.result.stderr).toBe(0);
      const again = await runIn(plain, args);
      expect(again.code).toBe(0);
      expect(lines(again.stdout).filter((line) => line.endsWith("already made from the same inputs, skipped"))).toHaveLength(3);
      await writeFile(plain.path("resume.json"), JSON.stringify([rows[0], { title: "R2, changed" }, rows[2]]));
      const changedRow = await runIn(plain, args);
      expect(
        lines(changedRow.stdout)
          .filter((line) => line.endsWith("skipped"))
          .map((line) => line.split(":")[0]),
      ).toEqual(["row 1", "row 3"]);
      // A project file changed: every row is made again.
      await writeFile(plain.path("extra.css"), "p { color: red; }");
      const changedProject = await runIn(plain, args);
      expect(lines(changedProject.stdout).filter((line) => line.endsWith("skipped"))).toEqual([]);
      expect(lines(changedProject.stdout).filter((line) => /^row \d: resume\/\d\.mp4 \(/.test(line))).toHaveLength(3);
    }, 120_000);
  });

  it("a stop leaves the finished rows whole and no partial file", async () => {
    await writeFile(project.path("stop.json"), JSON.stringify(Array.from({ length: 6 }, (_, index) => ({ title: `S${index}`, length: 1 }))));
    const batch = startCli(["render", project.dir, "--quality", "draft", "--batch", "stop.json", "--batch-concurrency", "1", "-o", "stop/{index}.mp4"], {
      cwd: project.dir,
      env: cache.env,
      processGroup: true,
    });
    await batch.waitForStdout(/^row 1: /m);
    process.kill(-batch.pid, "SIGINT");
    const result = await batch.result;
    expect(result.code).toBe(130);
    const left = await readdir(project.path("stop"));
    const outputs = left.filter((name) => name.endsWith(".mp4"));
    expect(left.filter((name) => !name.endsWith(".mp4") && name !== ".compose-batch.jsonl")).toEqual([]);
    expect(outputs.length).toBeGreaterThanOrEqual(1);
    expect(outputs.length).toBeLessThan(6);
    for (const name of outputs) expect(Number((await ffprobe(project.path("stop", name))).format.duration)).toBeCloseTo(1, 1);
    expect(lines(result.stderr).find((line) => line.startsWith("Batch:"))).toMatch(/not rendered \(stopped\)$/);
  }, 120_000);

  it("names a rows file's broken line", async () => {
    await writeFile(project.path("broken.jsonl"), `{"title": "ok"}\n{"title": \n`);
    const result = await run(["--batch", "broken.jsonl"]);
    expect(result.code).toBe(2);
    expect(lines(result.stderr)[0]).toMatch(/^error: --batch broken\.jsonl line 2 is not valid JSON: /);
    expect(await readFile(project.path("broken.jsonl"), "utf8")).toContain("ok");
  });
});
