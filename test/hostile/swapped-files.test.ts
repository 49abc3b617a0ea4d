/**
 * A project file swapped while it is served: another process turns a file into a link to a file
 * outside the project and back, and a folder into a link to a folder outside and back, as fast as
 * it can, while thousands of requests ask for them. The render's file server, the studio's and
 * the reads of project files (compositions, local web resolution) answer each with the project's
 * file or a 404, never with a byte of the outside files.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { Agent, get } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPreviewServer, type PreviewServer } from "../../packages/cli/src/preview/server.js";
import { ProjectFileError, readProjectFile } from "../../packages/renderer/src/common/project-file.js";
import { serveProject, type ProjectServer } from "../../packages/renderer/src/web/project-server.js";

const SECRET = "OUTSIDE-SECRET";
const INSIDE = "inside the project";
const FETCHES = 2000;

/**
 * Swaps, round after round until the stage holds a file named stop: swap.txt and swap.html
 * between a regular file and a link to a file outside (each swap one rename, so the name always
 * exists), and the folder dir between a real folder and a link to a folder outside. Prints the
 * rounds done every hundred rounds; stops with every name as it was.
 */
const SWAPPER = `
const fs = require("node:fs");
const { join } = require("node:path");
const [project, outside, stage] = process.argv.slice(1);
const to = (name) => join(project, name);
const link = (target, name) => { fs.symlinkSync(target, join(stage, "link")); fs.renameSync(join(stage, "link"), to(name)); };
const file = (text, name) => { fs.writeFileSync(join(stage, "file"), text); fs.renameSync(join(stage, "file"), to(name)); };
for (let round = 1; !fs.existsSync(join(stage, "stop")); round++) {
  link(join(outside, "secret.txt"), "swap.txt");
  link(join(outside, "secret.html"), "swap.html");
  fs.renameSync(to("dir"), join(stage, "dir"));
  fs.symlinkSync(join(outside, "dir"), to("dir"));
  file(${JSON.stringify(INSIDE)}, "swap.txt");
  file(${JSON.stringify(`<p>${INSIDE}</p>`)}, "swap.html");
  fs.unlinkSync(to("dir"));
  fs.renameSync(join(stage, "dir"), to("dir"));
  if (round % 100 === 0) process.stdout.write(round + "\\n");
}
`;

let base: string;
let project: string;
let projectServer: ProjectServer;
let preview: PreviewServer;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "compose-swapped-"));
  project = join(base, "project");
  const outside = join(base, "outside");
  await mkdir(join(project, "dir"), { recursive: true });
  await mkdir(join(outside, "dir"), { recursive: true });
  await mkdir(join(base, "stage"));
  await writeFile(join(project, "index.html"), "<p>composition</p>");
  await writeFile(join(project, "swap.txt"), INSIDE);
  await writeFile(join(project, "swap.html"), `<p>${INSIDE}</p>`);
  await writeFile(join(project, "dir", "file.txt"), INSIDE);
  await writeFile(join(project, "media.bin"), Buffer.from(Array.from({ length: 256 }, (_, i) => i)));
  await writeFile(join(outside, "secret.txt"), SECRET);
  await writeFile(join(outside, "secret.html"), `<p>${SECRET}</p>`);
  await writeFile(join(outside, "dir", "file.txt"), SECRET);
  projectServer = await serveProject(project, { read: async () => undefined });
  preview = await startPreviewServer({
    entryFile: join(project, "index.html"),
    pathArg: project,
    pathIsFolder: false,
    cwd: project,
    host: "127.0.0.1",
    port: 0,
    runtimeBundle: () => "",
    executeRender: () => Promise.reject(new Error("no renders here")),
    nameOf: () => "index",
    planMedia: async () => [],
    framesDir: join(base, "frames"),
  });
});

afterAll(async () => {
  agent.destroy();
  await projectServer?.close();
  await preview?.close();
  await rm(base, { recursive: true, force: true });
});

/** Runs the swapper until `work` is done; the rounds it swapped. */
async function whileSwapping(work: () => Promise<void>): Promise<number> {
  const stage = join(base, "stage");
  const swapper: ChildProcess = spawn(process.execPath, ["-e", SWAPPER, project, join(base, "outside"), stage], { stdio: ["ignore", "pipe", "pipe"] });
  let rounds = 0;
  let stderr = "";
  swapper.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => swapper.once("exit", () => resolve()));
  try {
    // The requests start once the swaps have.
    await new Promise<void>((resolve, reject) => {
      swapper.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
        rounds = Number(chunk.trim().split("\n").at(-1));
        resolve();
      });
      swapper.once("exit", () => reject(new Error(`the swapper stopped: ${stderr}`)));
    });
    await work();
  } finally {
    await writeFile(join(stage, "stop"), "");
    await exited;
    await rm(join(stage, "stop"));
  }
  return rounds;
}

interface Tally {
  inside: number;
  refused: number;
  /** Answers with outside bytes, and any answer neither the file nor a 404. */
  wrong: string[];
}

/** An answer for a name: 200 with the file's text, or 404. */
type Ask = (path: string) => Promise<{ status: number; body: string }>;

/**
 * Connections kept open between requests, as fetch keeps them. node:http rather than fetch: the
 * thousands of requests cost a third less CPU, which the swapper, running as long as they do,
 * spends again.
 */
const agent = new Agent({ keepAlive: true });

const fetchFrom =
  (baseUrl: () => string): Ask =>
  (path) =>
    new Promise((resolve, reject) => {
      // A request left unanswered is a wrong answer too, not a stuck test (30 s: one busy machine's worst wait, many times over).
      get(new URL(path, baseUrl()), { agent, signal: AbortSignal.timeout(30_000) }, (response) => {
        let body = "";
        response
          .setEncoding("utf8")
          .on("data", (chunk: string) => (body += chunk))
          .on("end", () => resolve({ status: response.statusCode!, body }))
          .on("error", reject);
      }).on("error", reject);
    });

/** readProjectFile as the render reads compositions and local web resolution reads packages: a refusal is a 404. */
const readFrom: Ask = async (path) => {
  const bytes = await readProjectFile(project, path).catch((error: unknown) => {
    if (error instanceof ProjectFileError) return undefined;
    throw error;
  });
  return bytes === undefined ? { status: 404, body: "" } : { status: 200, body: bytes.toString("utf8") };
};

/** Asks for the swapped names FETCHES times in all, eight at a time, counting what came back. */
async function askAll(ask: Ask, paths: string[]): Promise<Tally> {
  const tally: Tally = { inside: 0, refused: 0, wrong: [] };
  let next = 0;
  const worker = async () => {
    // The first wrong answer ends the run: it has failed.
    while (next < FETCHES && tally.wrong.length === 0) {
      const path = paths[next++ % paths.length]!;
      try {
        const { status, body } = await ask(path);
        if (status === 200 && body.includes(INSIDE) && !body.includes(SECRET)) tally.inside++;
        else if (status === 404 && !body.includes(SECRET)) tally.refused++;
        else tally.wrong.push(`${path}: ${status} ${body}`);
      } catch (error) {
        tally.wrong.push(`${path}: ${(error as Error).message}`);
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return tally;
}

describe("a project file swapped for a link out while it is read", () => {
  it.each([
    ["the render's file server", fetchFrom(() => projectServer.baseUrl), ["swap.txt", "dir/file.txt"]],
    ["the studio", fetchFrom(() => preview.url), ["swap.txt", "swap.html", "dir/file.txt"]],
    ["readProjectFile", readFrom, ["swap.txt", "dir/file.txt"]],
  ])(
    "%s never gives the outside file",
    async (_, ask, paths) => {
      let tally: Tally | undefined;
      const rounds = await whileSwapping(async () => {
        tally = await askAll(ask, paths);
      });
      expect(tally!.wrong).toEqual([]);
      // The race was run: the files changed under the requests, which saw both of their states.
      expect(rounds).toBeGreaterThan(0);
      expect(tally!.inside).toBeGreaterThan(0);
      expect(tally!.refused).toBeGreaterThan(0);
      expect(tally!.inside + tally!.refused).toBeGreaterThanOrEqual(FETCHES);
      // A count of fetches, not a time: on a busy machine they take minutes.
    },
    600_000,
  );
});

describe("ranges and HEAD", () => {
  it.each([
    ["the render's file server", () => projectServer.baseUrl],
    ["the studio", () => preview.url],
  ])("%s answers a byte range with 206, one past the end with 416, and HEAD with headers only", async (_, baseUrl) => {
    const url = new URL("media.bin", baseUrl());
    const part = await fetch(url, { headers: { Range: "bytes=10-13" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe("bytes 10-13/256");
    expect([...new Uint8Array(await part.arrayBuffer())]).toEqual([10, 11, 12, 13]);
    const tail = await fetch(url, { headers: { Range: "bytes=-3" } });
    expect(tail.status).toBe(206);
    expect([...new Uint8Array(await tail.arrayBuffer())]).toEqual([253, 254, 255]);
    const rest = await fetch(url, { headers: { Range: "bytes=250-" } });
    expect(rest.headers.get("content-range")).toBe("bytes 250-255/256");
    expect((await rest.arrayBuffer()).byteLength).toBe(6);
    const past = await fetch(url, { headers: { Range: "bytes=256-" } });
    expect(past.status).toBe(416);
    expect(past.headers.get("content-range")).toBe("bytes */256");
    await past.arrayBuffer();
    const head = await fetch(url, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe("256");
    expect(head.headers.get("accept-ranges")).toBe("bytes");
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });

  it("the studio revalidates project files with an ETag: a reload of an unchanged file is 304", async () => {
    const first = await fetch(new URL("media.bin", preview.url));
    await first.arrayBuffer();
    expect(first.headers.get("cache-control")).toBe("no-cache");
    const etag = first.headers.get("etag")!;
    expect(etag).toBeTruthy();
    const again = await fetch(new URL("media.bin", preview.url), { headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
  });
});
