import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdir, readFile, realpath } from "node:fs/promises";
import { dirname, extname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { FRAME_RATES, FRAME_SCRIPT_ATTRIBUTE, injectFirstScript, runtimeScripts } from "@compose/core";
import type { JobExecutor } from "@compose/producer";
import { openEventStream } from "@compose/producer/sse";
import type { MediaPlanRequest } from "@compose/renderer";
import { createRoutedWeb, MAX_PROJECT_FILE_BYTES, openServedFile, readOpenedFile, sendProjectFile, type ProjectFile } from "@compose/renderer/project";
import { cacheable, sendCacheable, sendRevalidated, type Cacheable } from "./http-cache.js";
import { isInstanceValues, isPlainObject } from "./instance-values.js";
import { listCompositions } from "../project/list-compositions.js";
import { lintEntry, readProjectState } from "./project-state.js";
import { createRenderJobs, type PreviewRender } from "./render-jobs.js";
import { watchProject, type ProjectWatcher } from "./watch-project.js";

/** The preview page's own files: its HTML and CSS as written, its script as bundled from the page's modules. */
const APP_FILES: Record<string, string> = {
  "index.html": fileURLToPath(new URL("../../src/preview/page/index.html", import.meta.url)),
  "preview.css": fileURLToPath(new URL("../../src/preview/page/preview.css", import.meta.url)),
  "preview.js": fileURLToPath(new URL("./page/preview.js", import.meta.url)),
};
/** Everything the preview itself serves lives under this prefix; the rest is the project. */
export const PREVIEW_PREFIX = "/__compose/";
/** Query parameter of the composition page's URL holding the runtime's boot config as JSON. */
export const CONFIG_PARAMETER = "__compose_config";
/** Where the URLs the project's packages answer in a render (CDN libraries, Google Fonts) are answered, as `web/<host>/<path>`. */
const WEB_PREFIX = `${PREVIEW_PREFIX}web/`;
/** Project files whose text may name such URLs, routed there as HTML is. */
const ROUTED_TEXT = /\.(css|m?js)$/i;

const LOCAL_NAMES = new Set(["127.0.0.1", "localhost", "::1"]);

const APP_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
};

export interface PreviewServerOptions {
  /** Absolute path of the entry HTML file; its directory is served as the site's root, as render does. */
  entryFile: string;
  /** The path as given to compose preview, for the render command the page offers. */
  pathArg: string;
  /** Whether the path named a folder without index.html: the page then always offers the list of compositions. */
  pathIsFolder: boolean;
  cwd: string;
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** The runtime bundle render injects (renderer's runtimeBundle), served once for every frame and kept by the browser. */
  runtimeBundle: () => string;
  /** Runs the page's renders: the server's executor around the renderer's render(). */
  executeRender: JobExecutor;
  /** Names a composition file for output files, as compose render does. */
  nameOf: (file: string) => string;
  /** The renderer's planMedia(): video frames extracted as render extracts them, for the page to show. */
  planMedia: (request: MediaPlanRequest) => Promise<unknown[]>;
  /** Where planMedia() puts extracted frames, served under /__compose/frames/. */
  framesDir: string;
}

export interface PreviewServer {
  url: string;
  close(): Promise<void>;
}

function send(response: ServerResponse, status: number, type: string, body: string | Buffer): void {
  response.writeHead(status, { "Content-Type": type, "Cache-Control": "no-store", "Content-Length": Buffer.byteLength(body) });
  response.end(body);
}

function notFound(response: ServerResponse): void {
  send(response, 404, "text/plain; charset=utf-8", "not found");
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  send(response, status, "application/json; charset=utf-8", JSON.stringify(body));
}

/** A failure the request caused (a project file refused, missing or not a file): a 400, not the preview's own fault. */
function causedByRequest(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && code !== "";
}

/** Largest request body the page sends (render options and variable values). */
const MAX_BODY_BYTES = 1 << 20;

async function readJsonBody(request: IncomingMessage): Promise<{ ok: true; value: unknown } | { ok: false; problem: string }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return { ok: false, problem: `the request body is larger than ${MAX_BODY_BYTES} bytes` };
    chunks.push(chunk);
  }
  try {
    return { ok: true, value: JSON.parse(Buffer.concat(chunks).toString("utf8")) };
  } catch (error) {
    return { ok: false, problem: `the request body is not valid JSON: ${(error as Error).message}` };
  }
}

/**
 * A POST must come from the preview page itself: JSON (which a form on another site cannot send
 * without a preflight this server never answers) and, when the browser names it, this origin.
 */
function postAllowed(request: IncomingMessage): boolean {
  const type = (request.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
  const origin = request.headers.origin;
  return type === "application/json" && (origin === undefined || origin === `http://${request.headers.host}`);
}

/** Streams a render's events as the server streams them, from its first, until it finishes or fails. */
function streamRender(response: ServerResponse, { job, events }: PreviewRender): void {
  const stream = openEventStream(response);
  for (const event of events) stream.send(event);
  if (job.terminal) return stream.end();
  const unsubscribe = job.subscribe((event) => {
    stream.send(event);
    if (job.terminal) stream.end();
  });
  stream.onClose(unsubscribe);
}

export interface PreviewConfig {
  /** The top-level composition's values (the runtime's boot config). */
  variables?: Record<string, unknown>;
  /** Values for sub-composition hosts by data-composition-id, in place of their data-variable-values. */
  instances?: Record<string, Record<string, unknown>>;
}

/** The config carried by the composition page's URL; {} when absent or malformed. */
export function parseBootConfig(text: string | null): PreviewConfig {
  if (!text) return {};
  try {
    const value = JSON.parse(text) as unknown;
    if (!isPlainObject(value)) return {};
    const { variables, instances } = value;
    const config: PreviewConfig = {};
    if (isPlainObject(variables)) config.variables = variables;
    if (isInstanceValues(instances)) config.instances = instances;
    return config;
  } catch {
    return {};
  }
}

export async function startPreviewServer(options: PreviewServerOptions): Promise<PreviewServer> {
  // Real, as render serves it: a project file is one whose real path lies inside.
  const root = await realpath(dirname(options.entryFile));
  /** The composition compose preview was given; each page may pick another of the project's, which it names in its requests. */
  const defaultEntry = join(root, relative(dirname(options.entryFile), options.entryFile));
  /** The project's absolute paths as paths inside it: what the page is told shows nothing of the machine's file system. */
  const withoutMachinePaths = (message: string) => message.replaceAll(`${root}${sep}`, "").replaceAll(root, "the project");
  const urlOf = (file: string) => `/${relative(root, file).split(sep).map(encodeURIComponent).join("/")}`;
  /** The entry a page names (a path relative to the project, `/`-separated), or the default when it names none; undefined when it is not one of the project's compositions. */
  const entryFor = async (path: unknown): Promise<string | undefined> => {
    if (path === undefined || path === null || path === "") return defaultEntry;
    if (typeof path !== "string" || !(await listCompositions(root)).includes(path)) return undefined;
    return join(root, ...path.split("/"));
  };
  const unknownComposition = async (path: unknown) => `composition must be one of the project's compositions: ${(await listCompositions(root)).join(", ")} (got ${JSON.stringify(path)})`;
  /** The path of the render command: as given when it names this entry, else the entry's file, so the command runs as shown. */
  const commandPath = (file: string) => (file === defaultEntry && !options.pathIsFolder ? options.pathArg : relative(options.cwd, file) || file);
  /** The project file a URL path names, opened under the rules render serves by; a folder's index.html. */
  const projectFile = async (pathname: string): Promise<ProjectFile | undefined> => {
    for (const path of [pathname, `${pathname.replace(/\/?$/, "/")}index.html`]) {
      const opened = await openServedFile(root, path);
      if (opened.kind === "file") return opened;
    }
    return undefined;
  };
  let version = 1;
  const clients = new Set<ServerResponse>();
  await mkdir(options.framesDir, { recursive: true });
  const renders = createRenderJobs({ root, execute: options.executeRender });

  const readState = async (file: string) => ({
    ...withoutPathsInError(await readProjectState({ entryFile: file, entryUrl: urlOf(file), pathArg: commandPath(file), cwd: options.cwd, version })),
    compositions: await listCompositions(root),
    pathIsFolder: options.pathIsFolder,
  });
  /** An answer whose `error` names no absolute path. */
  function withoutPathsInError<T extends { error?: string | undefined }>(answer: T): T {
    return answer.error === undefined ? answer : { ...answer, error: withoutMachinePaths(answer.error) };
  }
  /** What the page asks for, read once per composition and project version: every tab and reload of a version shares it. */
  const answers = new Map<string, Promise<unknown>>();
  /** The compositions whose state was asked for at this version: those the open pages show. */
  const statesAsked = new Set<string>();
  const answer = (name: "state" | "lint", file: string): Promise<unknown> => {
    if (name === "state") statesAsked.add(file);
    const key = `${name} ${version} ${file}`;
    if (!answers.has(key)) {
      const read = name === "state" ? readState(file) : lintEntry({ entryFile: file, cwd: options.cwd, version }).then(withoutPathsInError);
      // A read that failed is tried again on the next request.
      answers.set(key, read.catch((error: unknown) => (answers.delete(key), Promise.reject(error))));
    }
    return answers.get(key)!;
  };
  // Read before the page asks, so the first page's first frame does not wait for it.
  void answer("state", defaultEntry).catch(() => undefined);

  const announceChange = (files: string[]) => {
    const shown = [...statesAsked];
    version++;
    answers.clear();
    statesAsked.clear();
    // The pages showing these will ask for them as soon as they hear of the change: read them now.
    for (const file of shown) void answer("state", file).catch(() => undefined);
    const data = JSON.stringify({ version, files });
    for (const client of clients) client.write(`event: change\ndata: ${data}\n\n`);
  };

  /** The runtime's URL names its content, so a browser keeps it for good and never asks again: every frame of every reload reuses it. */
  const runtime = cacheable(options.runtimeBundle());
  const runtimeUrl = `${PREVIEW_PREFIX}runtime.js?v=${runtime.etag.slice(1, -1)}`;
  const web = createRoutedWeb(root, WEB_PREFIX);
  /** The fonts every frame gets, as a render's pages get them, each at a URL that names its content; read again at each project version. */
  const fontFiles = new Map<string, Promise<Cacheable | undefined>>();
  const fonts = (name: "fonts.css" | "fonts.js"): Promise<Cacheable | undefined> => {
    const key = `${version} ${name}`;
    if (!fontFiles.has(key)) fontFiles.set(key, (name === "fonts.css" ? web.defaultFontsCss() : web.projectFontsScript()).then((text) => (text === undefined ? undefined : cacheable(text))));
    return fontFiles.get(key)!;
  };
  const fontsUrl = async (name: "fonts.css" | "fonts.js") => {
    const content = await fonts(name);
    return content && `${PREVIEW_PREFIX}${name}?v=${content.etag.slice(1, -1)}`;
  };

  /**
   * Project HTML with the runtime as its first script, booted with the config in the URL, then the
   * fonts a render's page has: the URLs the project's packages answer lead to this server, the
   * default set is a style sheet, the project's font packages come by the script render runs.
   * Both are the frame's, not the page's: an instance does not inherit the script as a library.
   */
  const serveHtml = async (response: ServerResponse, file: ProjectFile, config: string | null): Promise<void> => {
    const html = web.drawGenericsAsRendered(web.route((await readOpenedFile(file, file.path)).toString("utf8")));
    const [css, script] = await Promise.all([fontsUrl("fonts.css"), fontsUrl("fonts.js")]);
    const frame =
      runtimeScripts(runtimeUrl, parseBootConfig(config)) +
      (css ? `<link rel="stylesheet" href="${css}" ${FRAME_SCRIPT_ATTRIBUTE}>` : "") +
      (script ? `<script src="${script}" ${FRAME_SCRIPT_ATTRIBUTE}></script>` : "");
    send(response, 200, "text/html; charset=utf-8", injectFirstScript(html, frame));
  };

  /** A style sheet or script of the project, the URLs the project's packages answer routed here; revalidated as every project file is. */
  const serveRoutedText = async (request: IncomingMessage, response: ServerResponse, file: ProjectFile): Promise<void> => {
    if (file.info.size > MAX_PROJECT_FILE_BYTES) return sendProjectFile(request, response, file, { etag: true });
    const etag = `W/"${file.info.size}-${file.info.mtime.getTime()}-routed"`;
    if (request.headers["if-none-match"] === etag) {
      await file.handle.close();
      return void response.writeHead(304, { ETag: etag, "Cache-Control": "no-cache" }).end();
    }
    const text = web.route((await readOpenedFile(file, file.path)).toString("utf8"));
    const css = /\.css$/i.test(file.path);
    sendRevalidated(response, css ? "text/css; charset=utf-8" : "text/javascript; charset=utf-8", css ? web.drawGenericsAsRendered(text) : text, etag);
  };

  /** GET /__compose/web/<host>/<path>: what a render's page would get for that URL from the project's packages; else the web's own answer. */
  const serveWeb = async (response: ServerResponse, path: string): Promise<void> => {
    const url = web.urlOf(path);
    if (url === undefined) return notFound(response);
    const local = await web.answer(url);
    if (!local) return void response.writeHead(302, { Location: url, "Cache-Control": "no-store" }).end();
    response.writeHead(200, { "Content-Type": local.contentType, "Content-Length": local.body.length, "Cache-Control": "no-cache", "Access-Control-Allow-Origin": "*" });
    response.end(local.body);
  };

  const serveApp = async (response: ServerResponse, name: string): Promise<void> => {
    const file = Object.hasOwn(APP_FILES, name) ? APP_FILES[name] : undefined;
    const type = APP_TYPES[extname(name)];
    if (!file || !type) return notFound(response);
    try {
      send(response, 200, type, await readFile(file));
    } catch {
      notFound(response);
    }
  };

  const events = (request: IncomingMessage, response: ServerResponse): void => {
    response.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-store", Connection: "keep-alive" });
    response.write(`retry: 1000\nevent: hello\ndata: ${JSON.stringify({ version })}\n\n`);
    clients.add(response);
    request.on("close", () => clients.delete(response));
  };

  /** POST /__compose/renders starts a render of the composition it names; POST /__compose/renders/<id>/cancel stops it. */
  const handlePost = async (request: IncomingMessage, response: ServerResponse, name: string): Promise<void> => {
    if (!postAllowed(request)) return sendJson(response, 403, { error: "the preview accepts JSON requests from its own page only" });
    if (name === "media") {
      const body = await readJsonBody(request);
      if (!body.ok) return sendJson(response, 400, { error: body.problem });
      const { fps, media } = (body.value ?? {}) as { fps?: unknown; media?: unknown };
      if (!(FRAME_RATES as readonly unknown[]).includes(fps)) return sendJson(response, 400, { error: `fps must be one of ${FRAME_RATES.join(", ")}` });
      if (!Array.isArray(media)) return sendJson(response, 400, { error: "media must be the list describeMedia() gives" });
      try {
        const baseUrl = `http://${request.headers.host}/`;
        const plans = await options.planMedia({ media: media as MediaPlanRequest["media"], projectRoot: root, baseUrl, fps: fps as number });
        return sendJson(response, 200, { plans });
      } catch (error) {
        return sendJson(response, 400, { error: withoutMachinePaths((error as Error).message), code: (error as { code?: string }).code });
      }
    }
    if (name === "renders") {
      const body = await readJsonBody(request);
      if (!body.ok) return sendJson(response, 400, { error: body.problem });
      const { composition, ...fields } = isPlainObject(body.value) ? body.value : { composition: undefined };
      const file = await entryFor(composition);
      if (file === undefined) return sendJson(response, 400, { error: await unknownComposition(composition) });
      const started = await renders.start(isPlainObject(body.value) ? fields : body.value, { file, name: options.nameOf(file) });
      if (!started.ok) return sendJson(response, started.busy ? 409 : 400, { error: withoutMachinePaths(started.problem) });
      return sendJson(response, 202, { id: started.render.job.id, output: started.render.job.outputUrl });
    }
    const cancel = /^renders\/(\d+)\/cancel$/.exec(name);
    const render = cancel && renders.get(cancel[1]!);
    if (!render) return sendJson(response, 404, { error: `no render at ${PREVIEW_PREFIX}${name}` });
    render.cancel();
    return sendJson(response, 202, { id: render.job.id });
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const post = request.method === "POST";
    if (request.method !== "GET" && request.method !== "HEAD" && !post) {
      response.writeHead(405, { Allow: "GET, HEAD, POST" }).end();
      return;
    }
    // Only this machine's names: a page elsewhere that rebinds its DNS name to 127.0.0.1 cannot read the project.
    const hostname = (request.headers.host ?? "").replace(/:\d+$/, "").replace(/^\[(.*)\]$/, "$1");
    if (hostname !== "" && !LOCAL_NAMES.has(hostname) && hostname !== options.host) {
      send(response, 403, "text/plain; charset=utf-8", "forbidden host");
      return;
    }
    const url = new URL(request.url ?? "/", "http://preview.invalid");
    const { pathname } = url;
    if (post) {
      if (!pathname.startsWith(PREVIEW_PREFIX)) return sendJson(response, 405, { error: "only the preview's own endpoints accept POST" });
      return handlePost(request, response, pathname.slice(PREVIEW_PREFIX.length));
    }
    if (pathname === "/") return serveApp(response, "index.html");
    if (pathname.startsWith(PREVIEW_PREFIX)) {
      const name = pathname.slice(PREVIEW_PREFIX.length);
      if (name === "state" || name === "lint") {
        const composition = url.searchParams.get("composition");
        const file = await entryFor(composition);
        if (file === undefined) return sendJson(response, 400, { error: await unknownComposition(composition) });
        return sendJson(response, 200, await answer(name, file));
      }
      if (name === "events") return events(request, response);
      const renderEvents = /^renders\/(\d+)\/events$/.exec(name);
      if (renderEvents) {
        const render = renders.get(renderEvents[1]!);
        return render ? streamRender(response, render) : notFound(response);
      }
      if (name === "runtime.js") return sendCacheable(request, response, "text/javascript; charset=utf-8", runtime);
      if (name === "fonts.css" || name === "fonts.js") {
        const content = await fonts(name);
        return content ? sendCacheable(request, response, APP_TYPES[extname(name)]!, content) : notFound(response);
      }
      if (pathname.startsWith(WEB_PREFIX)) return serveWeb(response, request.url!.slice(request.url!.indexOf(WEB_PREFIX) + WEB_PREFIX.length));
      if (name.startsWith("app/")) return serveApp(response, name.slice("app/".length));
      if (name.startsWith("frames/")) {
        const frame = await openServedFile(options.framesDir, name.slice("frames/".length));
        return frame.kind === "file" ? sendProjectFile(request, response, frame, { etag: false }) : notFound(response);
      }
      return notFound(response);
    }
    const file = await projectFile(pathname);
    if (file === undefined) return notFound(response);
    if (/\.html?$/i.test(file.path)) return serveHtml(response, file, url.searchParams.get(CONFIG_PARAMETER));
    if (ROUTED_TEXT.test(file.path)) return serveRoutedText(request, response, file);
    // Revalidated on every load: a reload after a save fetches what changed only, and the
    // browser reuses its compiled scripts for the rest.
    sendProjectFile(request, response, file, { etag: true });
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: Error) => {
      // JSON, as every answer of the preview's own; a project file the request named is its fault (400).
      if (!response.headersSent) sendJson(response, causedByRequest(error) ? 400 : 500, { error: withoutMachinePaths(error.message) });
      else response.end();
    });
  });

  let watcher: ProjectWatcher | undefined;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  watcher = watchProject(root, announceChange);
  // Comments keep idle connections open through proxies and show a dead client quickly.
  const keepAlive = setInterval(() => {
    for (const client of clients) client.write(": ping\n\n");
  }, 15_000);

  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(":") ? `[${options.host}]` : options.host;
  return {
    url: `http://${host}:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        clearInterval(keepAlive);
        renders.cancelAll();
        watcher?.close();
        watcher = undefined;
        for (const client of clients) client.end();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
