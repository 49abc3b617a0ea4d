import type { AddressInfo } from "node:net";
import { mkdir, readFile, realpath } from "node:fs/promises";
import { dirname, extname, join, relative, sep } from "node:path";
import { FRAME_RATES, FRAME_SCRIPT_ATTRIBUTE, injectFirstScript, runtimeScripts } from "@compose/core";
import type { JobExecutor } from "@compose/producer";
import { createHttpApp, HttpError, openEventStream, sendOpenedFile, type EventStream, type FastifyReply, type FastifyRequest } from "@compose/producer/http";
import type { MediaPlanRequest } from "@compose/renderer";
import { createRoutedWeb, MAX_PROJECT_FILE_BYTES, openServedFile, readOpenedFile, type ProjectFile } from "@compose/renderer/project";
import { cliPackageFile } from "../package-dir.js";
import { cacheable, sendCacheable, sendRevalidated, type Cacheable } from "./http-cache.js";
import { isInstanceValues, isPlainObject } from "./instance-values.js";
import { listCompositions } from "../project/list-compositions.js";
import { lintEntry, readProjectState } from "./project-state.js";
import { createRenderJobs, type PreviewRender } from "./render-jobs.js";
import { admitOwnPageOnly } from "./request-guards.js";
import { watchProject, type ProjectWatcher } from "./watch-project.js";

/** The preview page's own files: its HTML and CSS as written, its script as bundled from the page's modules. */
const APP_FILES: Record<string, string> = {
  "index.html": cliPackageFile("src/preview/page/index.html"),
  "preview.css": cliPackageFile("src/preview/page/preview.css"),
  "preview.js": cliPackageFile("dist/preview/page/preview.js"),
};
/** Everything the preview itself serves lives under this prefix; the rest is the project. */
export const PREVIEW_PREFIX = "/__compose/";
/** Query parameter of the composition page's URL holding the runtime's boot config as JSON. */
export const CONFIG_PARAMETER = "__compose_config";
/** Where the URLs the project's packages answer in a render (CDN libraries, Google Fonts) are answered, as `web/<host>/<path>`. */
const WEB_PREFIX = `${PREVIEW_PREFIX}web/`;
/** Project files whose text may name such URLs, routed there as HTML is. */
const ROUTED_TEXT = /\.(css|m?js)$/i;

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

function notFound(path: string): HttpError {
  return new HttpError(404, "not-found", `there is nothing at ${path}`);
}

/** The path a request names, as sent (percent-encoded), without its query. */
function pathOf(request: FastifyRequest): string {
  return request.url.split("?")[0]!;
}

/** A failure of a request: a project file the request named is its fault (400), anything else the preview's (500). */
function requestFailure(error: unknown, shown: (message: string) => string): HttpError {
  if (error instanceof HttpError) return error;
  const { message, code } = error as Error & { code?: unknown };
  return typeof code === "string" && code !== "" ? new HttpError(400, code, shown(message)) : new HttpError(500, "internal-error", shown(message));
}

/** Streams a render's events as the server streams them, from its first, until it finishes or fails. */
function streamRender(reply: FastifyReply, { job, events }: PreviewRender): void {
  reply.hijack();
  const stream = openEventStream(reply.raw);
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
  /** The composition a page names (a path relative to the project, `/`-separated), or the default when it names none; a 400 when it is not one of the project's. */
  const compositionFile = async (path: unknown): Promise<string> => {
    if (path === undefined || path === null || path === "") return defaultEntry;
    const compositions = await listCompositions(root);
    if (typeof path === "string" && compositions.includes(path)) return join(root, ...path.split("/"));
    throw new HttpError(
      400,
      "invalid-request",
      `composition must be one of the project's compositions: ${compositions.join(", ")} (got ${JSON.stringify(path)})`,
      "composition",
    );
  };
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
  /** The open pages' streams of project changes. */
  const pages = new Set<EventStream>();
  await mkdir(options.framesDir, { recursive: true });
  const renders = createRenderJobs({ root, execute: options.executeRender });
  /** The render a request's `:id` names; a 404 when there is none. */
  const findRender = (request: FastifyRequest): PreviewRender => {
    const { id } = request.params as { id: string };
    const render = renders.get(id);
    if (!render) throw new HttpError(404, "unknown-render", `there is no render ${id}`);
    return render;
  };

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
      answers.set(
        key,
        read.catch((error: unknown) => (answers.delete(key), Promise.reject(error))),
      );
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
    for (const page of pages) page.send({ type: "change", version, files });
  };

  /** The runtime's URL names its content, so a browser keeps it for good and never asks again: every frame of every reload reuses it. */
  const runtime = cacheable(options.runtimeBundle());
  const runtimeUrl = `${PREVIEW_PREFIX}runtime.js?v=${runtime.etag.slice(1, -1)}`;
  const web = createRoutedWeb(root, WEB_PREFIX);
  /** The fonts every frame gets, as a render's pages get them, each at a URL that names its content; read again at each project version. */
  const fontFiles = new Map<string, Promise<Cacheable | undefined>>();
  const fonts = (name: "fonts.css" | "fonts.js"): Promise<Cacheable | undefined> => {
    const key = `${version} ${name}`;
    if (!fontFiles.has(key))
      fontFiles.set(
        key,
        (name === "fonts.css" ? web.defaultFontsCss() : web.projectFontsScript()).then((text) => (text === undefined ? undefined : cacheable(text))),
      );
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
  const serveHtml = async (reply: FastifyReply, file: ProjectFile, config: string | null): Promise<FastifyReply> => {
    const html = web.drawGenericsAsRendered(web.route((await readOpenedFile(file, file.path)).toString("utf8")));
    const [css, script] = await Promise.all([fontsUrl("fonts.css"), fontsUrl("fonts.js")]);
    const frame =
      runtimeScripts(runtimeUrl, parseBootConfig(config)) +
      (css ? `<link rel="stylesheet" href="${css}" ${FRAME_SCRIPT_ATTRIBUTE}>` : "") +
      (script ? `<script src="${script}" ${FRAME_SCRIPT_ATTRIBUTE}></script>` : "");
    return reply.type("text/html; charset=utf-8").send(injectFirstScript(html, frame));
  };

  /** A style sheet or script of the project, the URLs the project's packages answer routed here; revalidated as every project file is. */
  const serveRoutedText = async (request: FastifyRequest, reply: FastifyReply, file: ProjectFile): Promise<FastifyReply | void> => {
    if (file.info.size > MAX_PROJECT_FILE_BYTES) return sendOpenedFile(request, reply, file, { etag: true });
    const etag = `W/"${file.info.size}-${file.info.mtime.getTime()}-routed"`;
    if (request.headers["if-none-match"] === etag) {
      await file.handle.close();
      return reply.status(304).headers({ etag, "cache-control": "no-cache" }).send();
    }
    const text = web.route((await readOpenedFile(file, file.path)).toString("utf8"));
    const css = /\.css$/i.test(file.path);
    return sendRevalidated(reply, css ? "text/css; charset=utf-8" : "text/javascript; charset=utf-8", css ? web.drawGenericsAsRendered(text) : text, etag);
  };

  /** GET /__compose/web/<host>/<path>: what a render's page would get for that URL from the project's packages; else the web's own answer. */
  const serveWeb = async (reply: FastifyReply, path: string): Promise<FastifyReply> => {
    const url = web.urlOf(path);
    if (url === undefined) throw notFound(`${WEB_PREFIX}${path}`);
    const local = await web.answer(url);
    if (!local) return reply.status(302).header("location", url).send();
    return reply.headers({ "cache-control": "no-cache", "access-control-allow-origin": "*" }).type(local.contentType).send(local.body);
  };

  const serveApp = async (reply: FastifyReply, name: string): Promise<FastifyReply> => {
    const file = Object.hasOwn(APP_FILES, name) ? APP_FILES[name] : undefined;
    const type = APP_TYPES[extname(name)];
    const body = file && type ? await readFile(file).catch(() => undefined) : undefined;
    if (!body) throw notFound(`${PREVIEW_PREFIX}app/${name}`);
    return reply.type(type!).send(body);
  };

  /** The state or lint of the composition a page names, or of the default one. */
  const serveProject = async (request: FastifyRequest, name: "state" | "lint"): Promise<unknown> => {
    const composition = new URL(request.url, "http://preview.invalid").searchParams.get("composition");
    return answer(name, await compositionFile(composition));
  };

  /** The project's changes, for a page to follow: `hello` with the version now, then a `change` per save. */
  const followChanges = (reply: FastifyReply): void => {
    reply.hijack();
    // A page that lost the stream (the preview restarted) asks again soon.
    const stream = openEventStream(reply.raw, {}, { retryMs: 1000 });
    stream.send({ type: "hello", version });
    pages.add(stream);
    stream.onClose(() => pages.delete(stream));
  };

  /** POST /__compose/media: the plans render hands its pages for these media at this fps. */
  const planMedia = async (request: FastifyRequest): Promise<unknown> => {
    const { fps, media } = (request.body ?? {}) as { fps?: unknown; media?: unknown };
    if (!(FRAME_RATES as readonly unknown[]).includes(fps)) throw new HttpError(400, "invalid-request", `fps must be one of ${FRAME_RATES.join(", ")}`, "fps");
    if (!Array.isArray(media)) throw new HttpError(400, "invalid-request", "media must be the list describeMedia() gives", "media");
    try {
      const baseUrl = `http://${request.headers.host}/`;
      return { plans: await options.planMedia({ media: media as MediaPlanRequest["media"], projectRoot: root, baseUrl, fps: fps as number }) };
    } catch (error) {
      const { message, code } = error as Error & { code?: unknown };
      throw new HttpError(400, typeof code === "string" ? code : "media-failed", withoutMachinePaths(message));
    }
  };

  /** POST /__compose/renders: starts a render of the composition the body names, with its options. */
  const startRender = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const { composition, ...fields } = isPlainObject(request.body) ? request.body : { composition: undefined };
    const file = await compositionFile(composition);
    const started = await renders.start(isPlainObject(request.body) ? fields : request.body, { file, name: options.nameOf(file) });
    if (!started.ok) throw new HttpError(started.busy ? 409 : 400, started.busy ? "render-running" : "invalid-request", withoutMachinePaths(started.problem));
    return reply.status(202).send({ id: started.render.job.id, output: started.render.job.outputUrl });
  };

  const app = createHttpApp({
    // The page shows the message of every failure; none is the server's alone to log.
    logError: () => undefined,
    routeGuide: "the preview answers GET and HEAD for the project's files, POST for its own endpoints",
  });
  admitOwnPageOnly(app, { host: options.host, prefix: PREVIEW_PREFIX });
  // What the browser may keep says so; everything else (the page's files, the project's HTML, every JSON answer) is asked for again.
  app.addHook("onSend", async (_request, reply, payload) => {
    if (!reply.hasHeader("cache-control")) reply.header("cache-control", "no-store");
    return payload;
  });
  /** A route whose failures are told in the preview's words, with no machine path. */
  const answering =
    (handler: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>) =>
    async (request: FastifyRequest, reply: FastifyReply): Promise<unknown> => {
      try {
        return await handler(request, reply);
      } catch (error) {
        throw requestFailure(error, withoutMachinePaths);
      }
    };
  const get = (url: string, handler: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>) =>
    app.get(url, { exposeHeadRoute: true }, answering(handler));
  const post = (url: string, handler: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>) => app.post(url, answering(handler));

  get("/", async (_request, reply) => serveApp(reply, "index.html"));
  get(`${PREVIEW_PREFIX}state`, async (request) => serveProject(request, "state"));
  get(`${PREVIEW_PREFIX}lint`, async (request) => serveProject(request, "lint"));
  get(`${PREVIEW_PREFIX}events`, async (_request, reply) => followChanges(reply));
  get(`${PREVIEW_PREFIX}renders/:id/events`, async (request, reply) => streamRender(reply, findRender(request)));
  get(`${PREVIEW_PREFIX}runtime.js`, async (request, reply) => sendCacheable(request, reply, "text/javascript; charset=utf-8", runtime));
  for (const name of ["fonts.css", "fonts.js"] as const) {
    get(`${PREVIEW_PREFIX}${name}`, async (request, reply) => {
      const content = await fonts(name);
      if (!content) throw notFound(`${PREVIEW_PREFIX}${name}`);
      return sendCacheable(request, reply, APP_TYPES[extname(name)]!, content);
    });
  }
  get(`${WEB_PREFIX}*`, async (request, reply) => serveWeb(reply, request.url.slice(request.url.indexOf(WEB_PREFIX) + WEB_PREFIX.length)));
  get(`${PREVIEW_PREFIX}app/*`, async (request, reply) => serveApp(reply, pathOf(request).slice(`${PREVIEW_PREFIX}app/`.length)));
  get(`${PREVIEW_PREFIX}frames/*`, async (request, reply) => {
    const name = pathOf(request).slice(`${PREVIEW_PREFIX}frames/`.length);
    const frame = await openServedFile(options.framesDir, name);
    if (frame.kind !== "file") throw notFound(`${PREVIEW_PREFIX}frames/${name}`);
    return sendOpenedFile(request, reply, frame, { etag: false });
  });
  get(`${PREVIEW_PREFIX}*`, async (request) => {
    throw notFound(pathOf(request));
  });
  get("/*", async (request, reply) => {
    const url = new URL(request.url, "http://preview.invalid");
    const file = await projectFile(url.pathname);
    if (file === undefined) throw notFound(url.pathname);
    if (/\.html?$/i.test(file.path)) return serveHtml(reply, file, url.searchParams.get(CONFIG_PARAMETER));
    if (ROUTED_TEXT.test(file.path)) return serveRoutedText(request, reply, file);
    // Revalidated on every load: a reload after a save fetches what changed only, and the
    // browser reuses its compiled scripts for the rest.
    return sendOpenedFile(request, reply, file, { etag: true });
  });
  post(`${PREVIEW_PREFIX}media`, planMedia);
  post(`${PREVIEW_PREFIX}renders`, startRender);
  post(`${PREVIEW_PREFIX}renders/:id/cancel`, async (request, reply) => {
    const render = findRender(request);
    render.cancel();
    return reply.status(202).send({ id: render.job.id });
  });
  post(`${PREVIEW_PREFIX}*`, async (request) => {
    throw new HttpError(404, "not-found", `there is no POST ${pathOf(request)}`);
  });

  let watcher: ProjectWatcher | undefined;
  await app.listen({ host: options.host, port: options.port });
  watcher = watchProject(root, announceChange);

  const { port } = app.server.address() as AddressInfo;
  const host = options.host.includes(":") ? `[${options.host}]` : options.host;
  return {
    url: `http://${host}:${port}/`,
    async close() {
      renders.cancelAll();
      watcher?.close();
      watcher = undefined;
      for (const page of pages) page.end();
      // Render streams end with their render, which may take a while: their connections go now.
      app.server.closeAllConnections();
      await app.close();
    },
  };
}
