/**
 * `npm run chaos`: good and hostile requests, all at once, against one `compose serve` limited to
 * CHAOS_LIMIT (2) concurrent renders with a short ready timeout. Hostile ones spin forever at load
 * or at a frame, run out of memory, navigate away, ask for a billion frames or a 100000 px
 * width, frame a service on the server's loopback network, name a composition outside the
 * projects directory, embed a FIFO, a 400 MB file or a link out of the project, draw an SVG
 * <use> bomb, declare a duration of 1e-9 s, send a `__proto__` key, hold typed arrays or canvases
 * past --max-memory, carry a font package that cannot be read (a package.json that is not JSON,
 * a metadata.json of the wrong shape, a damaged WOFF2), nest sub-compositions 28 deep, send a body
 * nested 3,000 deep or misspell a path through a link out of the projects (no "did you mean" may
 * name what is outside); a text/plain body must get 415. Before them, one after the other, two
 * renders fill the server's empty cache at once, then a font of the cache is truncated, its
 * fonts.conf emptied, a font deleted and an extracted frame overwritten, each before a render that
 * must repair it with a cache-rebuilt warning. After them, a server with renders running and
 * waiting is killed with SIGKILL and started again (every id answers, the waiting renders resume,
 * one whose composition changed fails as composition-changed, a second server on the store is
 * refused, an Idempotency-Key holds), and the studio's entry and renders folder are replaced by
 * FIFOs (JSON 4xx, no path of the machine). It fails (exit 1) unless
 * every good request completes, every hostile one ends with its own code (and message, where one
 * is given), or, for the loopback service, completes with a network-refused warning and the
 * service never hears from it, the slots come back (two more good requests complete), a request
 * cancelled while it runs ends at once, SIGTERM with renders running ends the server within its
 * grace, and no browser, ffmpeg, temporary directory or staging is left. It prints how long each
 * kind took to end. With `--cluster`, the cluster's chaos run instead (run-cluster-chaos.ts).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cp, mkdir, mkdtemp, open, readdir, readFile, rm, symlink, truncate, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { render } from "@compose/renderer";
import { startPreviewServer } from "../../cli/src/preview/server.js";
import { renderExecutor } from "@compose/producer/render-executor";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { BLOCKER, TINY } from "../test/support/compositions.js";
import { eventually, openStream, request } from "../test/support/http.js";
import { leftoverProcesses, spawnServe, type ServeProcess } from "../test/support/serve.js";

const ROUNDS = Number(process.env.CHAOS_ROUNDS ?? 2);
const LIMIT = Number(process.env.CHAOS_LIMIT ?? 2);
// Long enough for the out-of-memory page to fill the renderer's 1 GiB heap and crash on a busy
// 2-core machine before it would be called hung.
const READY_TIMEOUT_MS = 6000;
const GRACE_S = 6;
/** SIGTERM ends the server within its grace; this is for the signal to arrive and the process to exit. */
const STOP_MARGIN_MS = 500;
const TIMEOUT_S = Number(process.env.CHAOS_TIMEOUT_S ?? 300);

/** What each page's browser may hold: above the script heap's own cap (1 GiB), so a page that fills its heap still crashes as it did. */
const MAX_MEMORY = "1.5G";

const page = (id: string, options: { width?: number; duration?: number; after?: string; body?: string } = {}) => `<!doctype html>
<html><head><meta charset="utf-8"><style>* { margin: 0; } #stage { width: ${options.width ?? 320}px; height: 180px; background: #204080; }</style></head>
<body><div id="stage" data-composition-id="${id}" data-width="${options.width ?? 320}" data-height="180" data-duration="${options.duration ?? 0.5}">${options.body ?? ""}</div>
${options.after ?? ""}</body></html>
`;

/** A failure's code, and text its message holds. */
interface Cause {
  code: string;
  message?: string;
}

interface Probe {
  composition: string;
  /** The request body beyond the composition and the usual options. */
  body?: Record<string, unknown>;
  /**
   * The terminal event expected: finished, or failed with this code (and text in its message), or
   * else failed with the cause `or` names; `status` for a refusal at submission (whose message has no `without`).
   */
  expect: { event: "finished"; warning?: string; or?: Cause } | ({ event: "failed"; or?: Cause } & Cause) | { status: number; code: string; without?: string };
}

/** Sub-compositions nested this deep: the document's whole tree was once too deep for the browser's protocol (CBOR). */
const NESTED_LEVELS = 28;

/** The files of a composition whose sub-compositions nest NESTED_LEVELS deep, index.html first. */
function nestedComposition(): Record<string, string> {
  return Object.fromEntries(
    Array.from({ length: NESTED_LEVELS + 1 }, (_, level) => {
      const next =
        level < NESTED_LEVELS ? `<div data-composition-id="level${level + 1}" data-composition-src="level${level + 1}.html" data-start="0"></div>` : "";
      return [level === 0 ? "index.html" : `level${level}.html`, page(`level${level}`, { body: next })];
    }),
  );
}

/** A JSON value nested `depth` deep. */
const nested = (depth: number): unknown => Array.from({ length: depth }).reduce<unknown>((inner) => ({ a: inner }), 1);

/** A composition that embeds card.html, which each probe makes something hostile. */
const embeds = (id: string) => page(id, { body: `<div data-composition-id="card" data-composition-src="card.html" data-start="0"></div>` });

/** Ten <use> of the level below, nine levels deep: a billion rectangles to lay out. */
function useBomb(): string {
  const defs = ['<g id="l0"><rect width="1" height="1" fill="red"/></g>'];
  for (let i = 1; i < 9; i++) defs.push(`<g id="l${i}">${Array.from({ length: 10 }, (_, j) => `<use href="#l${i - 1}" x="${j}"/>`).join("")}</g>`);
  return `<svg width="320" height="180"><defs>${defs.join("")}</defs><use href="#l8"/></svg>`;
}

/** A font package of this repository's, which the font package probes copy and damage. */
const FONT_PACKAGE = dirname(createRequire(import.meta.url).resolve("@fontsource/space-mono/package.json"));
const WOFF2 = "files/space-mono-latin-400-normal.woff2";

/** Text in the family of FONT_PACKAGE. */
const mono = (id: string) => page(id, { body: `<p style="font: 40px 'Space Mono', serif; color: #fff">Ag Mono</p>` });

/** How each font package probe's copy of FONT_PACKAGE is damaged. */
const PACKAGE_DAMAGE: Record<string, (pkg: string) => Promise<void>> = {
  "package-json": (pkg) => writeFile(join(pkg, "package.json"), '{ name: "@fontsource/space-mono" }'),
  "metadata-styles": async (pkg) =>
    writeFile(join(pkg, "metadata.json"), JSON.stringify({ ...JSON.parse(await readFile(join(pkg, "metadata.json"), "utf8")), styles: "normal" })),
  "damaged-woff2": async (pkg) => writeFile(join(pkg, WOFF2), (await readFile(join(pkg, WOFF2))).subarray(0, 1000)),
};

/** A page that keeps what `perFrame` allocates at every frame, to exceed --max-memory. */
const grows = (id: string, perFrame: string) =>
  page(id, { duration: 2, after: `<script>window.kept = []; __compose.onSeek(() => { if (window.kept.length < 64) ${perFrame} });</script>` });

/** Project files that are not plain HTML: made after the probes' index.html files are written. */
async function makeHostileFiles(projects: string): Promise<void> {
  execFileSync("mkfifo", [join(projects, "fifo", "card.html")]);
  // Sparse: 400 MB that take no disk and no time to write.
  const huge = await open(join(projects, "huge-card", "card.html"), "w");
  await huge.truncate(400 * 1024 * 1024);
  await huge.close();
  await symlink("/etc/passwd", join(projects, "link-out", "card.html"));
  for (const [project, damage] of Object.entries(PACKAGE_DAMAGE)) {
    const pkg = join(projects, project, "node_modules", "@fontsource", "space-mono");
    await cp(FONT_PACKAGE, pkg, { recursive: true });
    await damage(pkg);
  }
  execFileSync("ffmpeg", [
    "-hide_banner",
    "-loglevel",
    "error",
    "-f",
    "lavfi",
    "-i",
    "testsrc2=size=160x90:rate=30:duration=1",
    "-pix_fmt",
    "yuv420p",
    join(projects, "video", "clip.mp4"),
  ]);
  // A folder outside the projects, reached through a link: a misspelt path into it names nothing there.
  await mkdir(join(projects, "..", "outside", "secret-project"), { recursive: true });
  await symlink(join(projects, "..", "outside"), join(projects, "linked-out"));
  for (const [name, html] of Object.entries(nestedComposition())) await writeFile(join(projects, "nested", name), html);
}

function probes(servicePort: number): Record<string, Probe & { html?: string }> {
  return {
    good: { composition: "good", html: TINY, expect: { event: "finished" } },
    "spins at load": {
      composition: "spin-load",
      html: page("spin-load", { after: "<script>while (true) {}</script>" }),
      expect: { event: "failed", code: "page-hung" },
    },
    "spins at a frame": {
      composition: "spin-frame",
      html: page("spin-frame", { after: "<script>__compose.onSeek((t) => { if (t >= 0.2) while (true) {} });</script>" }),
      expect: { event: "failed", code: "page-hung" },
    },
    "runs out of memory": {
      composition: "oom",
      html: page("oom", {
        after: "<script>__compose.onSeek((t) => { if (t >= 0.2) { const hoard = []; for (;;) hoard.push(new Array(1e6).fill(t)); } });</script>",
      }),
      // Filling 1 GiB takes a few seconds of CPU: on a machine too busy to give them within the
      // script deadline, the page is stopped as hung before it crashes. Either way it ends, with its cause.
      expect: { event: "failed", code: "page-crashed", or: { code: "page-hung" } },
    },
    "navigates away": {
      composition: "navigate",
      html: page("navigate", { after: `<script>setTimeout(() => { location.href = "about:blank#gone"; }, 200);</script>` }),
      expect: { event: "failed", code: "left-composition" },
    },
    "a billion seconds": { composition: "huge", html: page("huge", { duration: 1e9 }), expect: { event: "failed", code: "limit-exceeded" } },
    "100000 px wide": { composition: "wide", html: page("wide", { width: 100000 }), expect: { event: "failed", code: "limit-exceeded" } },
    "frames a loopback service": {
      composition: "ssrf",
      html: page("ssrf", { body: `<iframe src="http://127.0.0.1:${servicePort}/admin" style="border:0;width:320px;height:180px"></iframe>` }),
      expect: { event: "finished", warning: "network-refused" },
    },
    "names a file outside the projects": { composition: "../../../etc", expect: { status: 400, code: "invalid-request" } },
    "embeds a FIFO": { composition: "fifo", html: embeds("fifo"), expect: { event: "failed", code: "invalid-composition", message: "[not-a-project-file]" } },
    "embeds a 400 MB file": {
      composition: "huge-card",
      html: embeds("huge-card"),
      expect: { event: "failed", code: "invalid-composition", message: "is 400 MiB" },
    },
    "embeds a link out of the project": {
      composition: "link-out",
      html: embeds("link-out"),
      expect: { event: "failed", code: "invalid-composition", message: "symbolic link that leads out of the project" },
    },
    "an SVG <use> bomb": {
      composition: "bomb",
      html: page("bomb", { body: useBomb() }),
      // Its copies take memory as well as time to lay out: on a busy machine the page may hold more
      // than --max-memory before it has been laying out for the script deadline. Either way it ends, with its cause.
      expect: { event: "failed", code: "page-hung", message: "laying out or painting", or: { code: "limit-exceeded", message: "while loading" } },
    },
    "a duration of 1e-9 s": {
      composition: "tiny-duration",
      html: page("tiny-duration", { duration: 1e-9 }),
      expect: { event: "failed", code: "invalid-composition", message: "from 0.001 to 10000000000" },
    },
    "a __proto__ key": { composition: "good", body: JSON.parse('{"__proto__": {"admin": true}}'), expect: { status: 400, code: "forbidden-key" } },
    "a font package.json that is not JSON": {
      composition: "package-json",
      html: mono("package-json"),
      expect: { event: "finished", warning: "font-package-invalid" },
    },
    'a font metadata.json with "styles": "normal"': {
      composition: "metadata-styles",
      html: mono("metadata-styles"),
      expect: { event: "finished", warning: "font-package-invalid" },
    },
    "a damaged WOFF2 in a font package": {
      composition: "damaged-woff2",
      html: mono("damaged-woff2"),
      expect: { event: "finished", warning: "font-package-invalid" },
    },
    "typed arrays past --max-memory": {
      composition: "typed-arrays",
      html: grows("typed-arrays", "{ const bytes = new Uint8Array(256 * 1024 * 1024); bytes.fill(1); window.kept.push(bytes); }"),
      expect: { event: "failed", code: "limit-exceeded", message: `over the limit of ${MAX_MEMORY}` },
    },
    "canvases past --max-memory": {
      composition: "canvases",
      html: grows(
        "canvases",
        'for (let i = 0; i < 4; i++) { const canvas = document.createElement("canvas"); canvas.width = 4096; canvas.height = 4096; const context = canvas.getContext("2d"); context.fillStyle = "red"; context.fillRect(0, 0, 4096, 4096); context.getImageData(0, 0, 1, 1); window.kept.push(canvas); }',
      ),
      expect: { event: "failed", code: "limit-exceeded", message: "raise the limit with --max-memory" },
    },
    // Its 29 documents load one inside the other: beside 22 other requests on a busy machine that
    // can take longer than the short ready timeout, which is a right end too (a protocol error is not).
    [`sub-compositions ${NESTED_LEVELS} deep`]: {
      composition: "nested",
      expect: { event: "finished", or: { code: "not-ready", message: "did not become ready within" } },
    },
    "a body nested 3,000 deep": { composition: "good", body: { metadata: nested(3000) }, expect: { status: 400, code: "invalid-json" } },
    "a misspelt path through a link out": {
      composition: "linked-out/secret-projec",
      expect: { status: 400, code: "invalid-request", without: "did you mean" },
    },
  };
}

/** A composition showing the clip makeHostileFiles made: it fills the frames cache. */
const VIDEO = page("video", { body: `<video src="clip.mp4" data-start="0" data-duration="0.5" muted style="width: 160px; height: 90px"></video>` });

/** The one entry under a folder of the server's cache. */
async function cacheEntry(cache: string, folder: "fonts" | "frames"): Promise<string> {
  const [entry] = (await readdir(join(cache, folder))).filter((name) => !name.includes("."));
  return join(cache, folder, entry!);
}

/**
 * The damaged-cache probes, one after the other before the mix, as they share the server's cache:
 * two renders fill the empty cache at once, then each damage is found and repaired by the next
 * render, which finishes with a cache-rebuilt warning.
 */
function cacheProbes(cache: string): Array<{ kind: string; damage?: () => Promise<void>; probes: Probe[] }> {
  const rebuilt: Probe = { composition: "video", expect: { event: "finished", warning: "cache-rebuilt" } };
  return [
    {
      kind: "two renders fill an empty cache at once",
      probes: [
        { composition: "video", expect: { event: "finished" } },
        { composition: "video", expect: { event: "finished" } },
      ],
    },
    {
      kind: "a truncated font in the cache",
      damage: async () => truncate(join(await cacheEntry(cache, "fonts"), "files", "inter-latin-wght-normal.ttf"), 1000),
      probes: [rebuilt],
    },
    { kind: "an empty fonts.conf in the cache", damage: async () => writeFile(join(await cacheEntry(cache, "fonts"), "fonts.conf"), ""), probes: [rebuilt] },
    {
      kind: "a font deleted from the cache",
      damage: async () => rm(join(await cacheEntry(cache, "fonts"), "files", "tinos-latin-400-normal.ttf")),
      probes: [rebuilt],
    },
    {
      kind: "an extracted frame overwritten",
      damage: async () => {
        const frame = join(await cacheEntry(cache, "frames"), "frame_000005.jpg");
        await writeFile(frame, randomBytes((await readFile(frame)).length));
      },
      probes: [rebuilt],
    },
  ];
}

interface Outcome {
  kind: string;
  ok: boolean;
  ms: number;
  got: string;
}

const problems: string[] = [];
const problem = (text: string) => {
  if (problems.length < 30) problems.push(text);
};

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function send(base: string, kind: string, probe: Probe): Promise<Outcome> {
  const started = Date.now();
  const client = await openStream(base, { ...probe.body, composition: probe.composition, quality: "draft", workers: 1 });
  if ("status" in probe.expect) {
    const { status, code, without } = probe.expect;
    const got = `${client.status} ${client.error?.error?.code}: ${client.error?.error?.message}`;
    const ok = client.status === status && client.error?.error?.code === code && !(without && String(client.error?.error?.message).includes(without));
    return { kind, ok, ms: Date.now() - started, got };
  }
  if (client.status !== 200) return { kind, ok: false, ms: Date.now() - started, got: `${client.status} ${JSON.stringify(client.error)}` };
  const events = await client.ended;
  const last = events.at(-1);
  const warnings = events.filter((event) => event.event === "warning").map((event) => event.data.code as string);
  const got =
    last?.event === "failed"
      ? `failed ${last.data.code}: ${last.data.message}`
      : `${last?.event}${warnings.length ? ` (warnings: ${warnings.join(", ")})` : ""}`;
  const expected = probe.expect;
  const failedWith = (cause: Cause | undefined) =>
    cause !== undefined && last?.event === "failed" && last.data.code === cause.code && String(last.data.message).includes(cause.message ?? "");
  const ok =
    expected.event === "finished"
      ? (last?.event === "finished" && (!expected.warning || warnings.includes(expected.warning))) || failedWith(expected.or)
      : failedWith(expected) || failedWith(expected.or);
  return { kind, ok, ms: Date.now() - started, got };
}

/** A body that is not JSON: a 415 in the JSON error shape. */
async function plainTextBody(base: string): Promise<string> {
  const answer = await request(`${base}/render`, { rawBody: '{"composition": "good"}', contentType: "text/plain" });
  const got = `${answer.status} ${answer.json?.error?.code}`;
  if (answer.status !== 415 || answer.json?.error?.code !== "unsupported-media-type") problem(`a text/plain body: ${got}`);
  return got;
}

/**
 * `kill -9` of a server (with a token) with a render running and two waiting, then a start on the
 * same directories: a second server on the store is refused in one line; after the start every id
 * answers (completed with its output, cancelled with its error), the running and waiting renders
 * are resumed in order, the waiting one whose composition changed fails as composition-changed, an
 * Idempotency-Key sent again answers the same request, and HEAD /health needs no token.
 */
async function killAndRestart(projects: string, outputs: string): Promise<string> {
  const token = "chaos-token";
  const args = ["--port", "0", "--max-concurrent-renders", "1", "--shutdown-grace", "0", "--projects", projects, "--outputs", outputs];
  const start = () => spawnServe(args, { env: { COMPOSE_TOKEN: token } });
  const post = async (server: ServeProcess, composition: string, headers: Record<string, string> = {}) =>
    (await request(`${server.url}/render`, { body: { composition, quality: "draft", workers: 1 }, token, headers })).json.requestId as string;
  const status = async (server: ServeProcess, id: string) => (await request(`${server.url}/render/${id}`, { token })).json;
  const expectState = async (server: ServeProcess, what: string, id: string, state: string, code?: string) => {
    const now = await status(server, id);
    if (now.state !== state || (code && now.error?.code !== code))
      problem(`after kill -9, ${what}: ${now.state} ${now.error?.code ?? ""} (expected ${state} ${code ?? ""})`);
  };
  const first = await start().ready;
  const done = await post(first, "good");
  await eventually(async () => ((await status(first, done)).state === "completed" ? true : undefined), 60_000);
  const cancelled = await post(first, "blocker.html");
  await request(`${first.url}/render/${cancelled}`, { method: "DELETE", token });
  const running = await post(first, "blocker.html");
  const waiting = await post(first, "good", { "idempotency-key": "chaos-1" });
  const changed = await post(first, "changing");
  await eventually(async () => ((await status(first, running)).state === "running" ? true : undefined));
  const second = await start().exited;
  if (second.code !== 1 || !/^error: the state store \S+ is in use by another compose serve;[^\n]*\n$/.test(second.stderr)) {
    problem(`a second server on the same state store: exit ${second.code}, ${JSON.stringify(second.stderr)}`);
  }
  await first.stop("SIGKILL");
  await leftoverProcesses(first.tag, 0);
  await writeFile(join(projects, "changing", "index.html"), page("changing", { width: 640 }));
  const killedAt = Date.now();
  const again = await start().ready;
  const startMs = Date.now() - killedAt;
  await expectState(again, "a completed render", done, "completed");
  const output = await request(`${again.url}/render/${done}/output`, { token });
  if (output.status !== 200) problem(`after kill -9, a completed render's output: ${output.status}`);
  await expectState(again, "a cancelled render", cancelled, "cancelled", "cancelled");
  await expectState(again, "the running render", running, "running");
  await expectState(again, "the waiting render", waiting, "queued");
  await expectState(again, "a waiting render whose composition changed", changed, "failed", "composition-changed");
  if ((await post(again, "good", { "idempotency-key": "chaos-1" })) !== waiting) problem("after kill -9, an Idempotency-Key sent again made another request");
  const head = await request(`${again.url}/health`, { method: "HEAD" });
  if (head.status !== 200) problem(`HEAD /health without the token: ${head.status}`);
  await request(`${again.url}/render/${running}`, { method: "DELETE", token });
  await eventually(async () => ((await status(again, waiting)).state === "completed" ? true : undefined), 60_000).catch(() =>
    problem("after kill -9, the resumed render did not complete"),
  );
  await again.stop();
  const left = await leftoverProcesses(again.tag);
  if (left.length > 0) problem(`left running after the restart: ${left.join("; ")}`);
  return `kill -9 with 1 render running and 2 waiting: started again in ${seconds(startMs)}, every id answered, the waiting render resumed, the changed one composition-changed`;
}

/** The studio, whose entry is replaced by a FIFO and then its renders folder too: JSON answers, 4xx, no path of the machine. */
async function studioWithFifos(dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "index.html"), TINY);
  const studio = await startPreviewServer({
    entryFile: join(dir, "index.html"),
    pathArg: dir,
    pathIsFolder: false,
    cwd: dir,
    host: "127.0.0.1",
    port: 0,
    runtimeBundle: () => "",
    executeRender: renderExecutor({}, render),
    nameOf: () => "index",
    planMedia: async () => [],
    framesDir: join(dir, ".frames"),
  });
  try {
    await rm(join(dir, "index.html"));
    execFileSync("mkfifo", [join(dir, "index.html")]);
    const renderNow = () => fetch(new URL("/__compose/renders", studio.url), { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
    const started = await renderNow();
    const { id } = (await started.json()) as { id: string };
    const events = await (await fetch(new URL(`/__compose/renders/${id}/events`, studio.url))).text();
    if (started.status !== 202 || !events.includes('"code":"invalid-composition"') || events.includes(dir))
      problem(`the studio's render of a FIFO entry: ${started.status} ${events.slice(-300)}`);
    await rm(join(dir, "renders"), { recursive: true, force: true });
    execFileSync("mkfifo", [join(dir, "renders")]);
    const refused = await renderNow();
    const body = await refused.text();
    if (refused.status !== 400 || !refused.headers.get("content-type")?.startsWith("application/json") || body.includes(dir))
      problem(`the studio with a FIFO for its renders folder: ${refused.status} ${body}`);
    return `the studio: a FIFO entry failed invalid-composition, a FIFO renders folder ${refused.status} JSON, no path shown`;
  } finally {
    await studio.close();
  }
}

async function main(): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), "compose-chaos-"));
  const serverTmp = join(root, "tmp");
  await mkdir(serverTmp);
  let serviceHits = 0;
  const service = createServer((_, response) => {
    serviceHits++;
    response.end("<body style='background:#ff0000'>internal admin page</body>");
  });
  await new Promise<void>((resolve) => service.listen(0, "127.0.0.1", resolve));
  const all = probes((service.address() as AddressInfo).port);
  for (const probe of Object.values(all)) {
    if (probe.html) {
      await mkdir(join(root, "projects", probe.composition), { recursive: true });
      await writeFile(join(root, "projects", probe.composition, "index.html"), probe.html);
    }
  }
  await mkdir(join(root, "projects", "video"));
  await writeFile(join(root, "projects", "video", "index.html"), VIDEO);
  await mkdir(join(root, "projects", "nested"), { recursive: true });
  await makeHostileFiles(join(root, "projects"));
  await writeFile(join(root, "projects", "blocker.html"), BLOCKER);
  await mkdir(join(root, "projects", "changing"));
  await writeFile(join(root, "projects", "changing", "index.html"), page("changing"));
  const cache = join(root, "cache");
  const args = [
    "--port",
    "0",
    "--max-concurrent-renders",
    String(LIMIT),
    "--max-queue",
    "1000",
    "--shutdown-grace",
    String(GRACE_S),
    "--projects",
    join(root, "projects"),
    "--outputs",
    join(root, "outputs"),
    "--max-memory",
    MAX_MEMORY,
  ];
  const server = await spawnServe(args, { env: { COMPOSE_READY_TIMEOUT_MS: String(READY_TIMEOUT_MS), TMPDIR: serverTmp, COMPOSE_CACHE_DIR: cache } }).ready;
  const deadline = setTimeout(() => {
    console.error(`chaos: not finished within ${TIMEOUT_S} s; stopping`);
    server.child.kill("SIGKILL");
    void leftoverProcesses(server.tag, 0).finally(() => process.exit(1));
  }, TIMEOUT_S * 1000);

  const base = server.url;
  const cacheOutcomes: Outcome[] = [];
  for (const { kind, damage, probes: sent } of cacheProbes(cache)) {
    await damage?.();
    cacheOutcomes.push(...(await Promise.all(sent.map((probe) => send(base, kind, probe)))));
  }
  for (const outcome of cacheOutcomes) if (!outcome.ok) problem(`${outcome.kind}: ended with ${outcome.got}`);

  const started = Date.now();
  const kinds = Object.keys(all);
  const mix = Array.from({ length: ROUNDS }, () => kinds).flat();
  const outcomes = await Promise.all(mix.map((kind) => send(base, kind, all[kind]!)));
  const chaosMs = Date.now() - started;
  for (const outcome of outcomes) if (!outcome.ok) problem(`${outcome.kind}: ended with ${outcome.got}`);
  if (serviceHits > 0) problem(`the loopback service was reached ${serviceHits} time(s)`);

  const plainText = await plainTextBody(base);

  const counts = (await request(`${base}/render/queue`)).json;
  if (counts.activeRenders !== 0 || counts.queuedRenders !== 0) problem(`slots not back: ${JSON.stringify(counts)}`);
  const after = await Promise.all(Array.from({ length: LIMIT }, () => send(base, "good", all.good!)));
  for (const outcome of after) if (!outcome.ok) problem(`good request after the chaos: ${outcome.got}`);

  // A request cancelled while it runs (its page waits forever) ends at once.
  const cancelStarted = Date.now();
  const held = await openStream(base, { composition: "blocker.html", quality: "draft", workers: 1 });
  const heldId = held.error ? undefined : ((await held.next("running")).data.requestId as string);
  const cancel = heldId ? await request(`${base}/render/${heldId}`, { method: "DELETE" }) : undefined;
  const cancelMs = Date.now() - cancelStarted;
  if (cancel?.status !== 200 || cancel.json.state !== "cancelled") problem(`DELETE of a running render: ${cancel?.status} ${JSON.stringify(cancel?.json)}`);

  // SIGTERM with renders running whatever they do: the server ends within its grace.
  const blockers = await Promise.all(Array.from({ length: LIMIT }, () => openStream(base, { composition: "blocker.html", quality: "draft", workers: 1 })));
  await eventually(async () => ((await request(`${base}/render/queue`)).json.activeRenders === LIMIT ? true : undefined));
  const stopStarted = Date.now();
  const exit = await server.stop();
  const stopMs = Date.now() - stopStarted;
  if (stopMs > GRACE_S * 1000 + STOP_MARGIN_MS) problem(`SIGTERM with ${LIMIT} renders running took ${seconds(stopMs)} (grace ${GRACE_S} s)`);
  for (const blocker of blockers) {
    const last = (await blocker.ended).at(-1);
    if (last?.event !== "failed" || last.data.code !== "cancelled") problem(`a render running at SIGTERM ended with ${JSON.stringify(last)}`);
  }
  clearTimeout(deadline);
  service.close();
  if (exit.code !== 0) problem(`compose serve exited with ${exit.code}: ${exit.stderr}`);
  const left = await leftoverProcesses(server.tag);
  if (left.length > 0) problem(`left running: ${left.map((line) => line.slice(0, 80)).join("; ")}`);
  const temporary = await readdir(serverTmp);
  if (temporary.length > 0) problem(`left in the server's TMPDIR: ${temporary.join(", ")}`);
  const outputs = await readdir(join(root, "outputs")).catch(() => []);
  const partial = outputs.filter((name) => name.startsWith(".") && name !== ".compose-server");
  if (partial.length > 0) problem(`partial outputs left: ${partial.join(", ")}`);
  // Every render that finished as expected left its output, and no other did.
  const expectsFinished = (outcome: Outcome) => {
    const expected = all[outcome.kind]!.expect;
    return "event" in expected && expected.event === "finished";
  };
  const finished = [...outcomes.filter(expectsFinished), ...after, ...cacheOutcomes].filter((outcome) => outcome.ok).length;
  const rendered = outputs.filter((name) => !name.startsWith("."));
  if (rendered.length !== finished) problem(`${rendered.length} outputs for ${finished} finished renders`);
  const restarted = await killAndRestart(join(root, "projects"), join(root, "restart-outputs"));
  const studio = await studioWithFifos(join(root, "studio"));
  await rm(root, { recursive: true, force: true });

  console.log(`chaos: first, one after the other, over the server's own cache:`);
  for (const { kind } of cacheProbes(cache)) {
    const mine = cacheOutcomes.filter((outcome) => outcome.kind === kind);
    console.log(
      `  ${kind.padEnd(44)} ${mine.filter((outcome) => outcome.ok).length}/${mine.length} ended after ${mine.map((outcome) => seconds(outcome.ms)).join(", ")}`,
    );
  }
  console.log(
    `chaos: ${mix.length} requests (${ROUNDS} of each kind) at once, limit ${LIMIT}, ready timeout ${READY_TIMEOUT_MS / 1000} s, --max-memory ${MAX_MEMORY}: ${seconds(chaosMs)}`,
  );
  for (const kind of kinds) {
    const mine = outcomes.filter((outcome) => outcome.kind === kind);
    const times = mine.map((outcome) => outcome.ms);
    const expected = all[kind]!.expect;
    const wanted =
      "status" in expected
        ? `${expected.status} ${expected.code}`
        : [expected.event === "failed" ? expected.code : `finished${expected.warning ? ` + ${expected.warning}` : ""}`, expected.or?.code]
            .filter(Boolean)
            .join(" or ");
    console.log(
      `  ${kind.padEnd(44)} ${mine.filter((outcome) => outcome.ok).length}/${mine.length} ${wanted.padEnd(32)} ended after p50 ${seconds(percentile(times, 50))}, max ${seconds(Math.max(...times))}`,
    );
  }
  console.log(
    `  then ${after.filter((outcome) => outcome.ok).length}/${LIMIT} good requests completed on the freed slots; loopback service reached ${serviceHits} times; left: ${left.length} processes, ${temporary.length} temporary entries`,
  );
  console.log(
    `  a running render cancelled (DELETE ${cancel?.status}) after ${seconds(cancelMs)}; SIGTERM with ${LIMIT} renders running ended the server after ${seconds(stopMs)} (grace ${GRACE_S} s)`,
  );
  console.log(`  a text/plain body: ${plainText}; ${restarted}; ${studio}`);
  if (problems.length > 0) {
    console.error(`chaos: FAILED\n  ${problems.join("\n  ")}`);
    process.exit(1);
  }
  console.log("chaos: ok");
}

if (process.argv.includes("--cluster")) await import("./run-cluster-chaos.js");
else await main();
