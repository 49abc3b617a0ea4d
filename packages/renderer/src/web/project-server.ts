import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { lookup } from "mrmime";
import { openProjectFile, type OpenedProjectFile } from "../common/project-file.js";
import { sendProjectFile } from "./send-file.js";

export interface ProjectServer {
  /** Base URL ending in `/`; a project file's URL is its path relative to the root appended to it. */
  baseUrl: string;
  close(): Promise<void>;
}

/** URL prefix of the renderer's own files (extracted video frames), apart from the project's. */
export const FRAMES_PREFIX = "/__compose/frames/";

/** The path relative to the root a URL path names, or undefined when it cannot be decoded. */
function pathOf(urlPath: string): string | undefined {
  try {
    return decodeURIComponent(urlPath.split("?")[0]!).replace(/^\/+/, "");
  } catch {
    return undefined;
  }
}

/** The project file of `root` a URL path names, opened under the project-file rule (openProjectFile); the caller closes it. */
export async function openServedFile(root: string, urlPath: string): Promise<OpenedProjectFile> {
  const path = pathOf(urlPath);
  return path === undefined ? { kind: "missing" } : openProjectFile(root, path);
}

/** The response header that names the project rule a refused request broke, for the render to tell. */
export const REFUSED_HEADER = "x-compose-refused";

/**
 * Serves only the project files of `dir` (openServedFile); anything else is 404, never a
 * listing. A file that exists but breaks a project rule gets the rule in REFUSED_HEADER.
 */
async function serveFileOf(dir: string, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const opened = await openServedFile(dir, request.url ?? "/");
  if (opened.kind === "file") return sendProjectFile(request, response, opened, { etag: false });
  // Absence is no rule: only a broken rule is named to the render.
  if (opened.kind === "refused") response.setHeader(REFUSED_HEADER, opened.reason);
  response.statusCode = 404;
  response.end("not found");
}

/** The renderer's own files that pages load under FRAMES_PREFIX (extracted video frames). */
export interface RendererFiles {
  /** The bytes of the file at `path` (below the prefix), checked; undefined when there is no such file. */
  read(path: string): Promise<Buffer | undefined>;
}

async function serveRendererFile(files: RendererFiles, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const path = pathOf(request.url!.slice(FRAMES_PREFIX.length));
  const bytes = path === undefined ? undefined : await files.read(path);
  if (bytes === undefined) {
    response.writeHead(404).end("not found");
    return;
  }
  response.writeHead(200, { "Content-Type": lookup(path!) ?? "application/octet-stream", "Content-Length": bytes.length, "Cache-Control": "no-store" });
  response.end(request.method === "HEAD" ? undefined : bytes);
}

/**
 * Serves a project directory to the browser on an ephemeral loopback port, and the renderer's
 * own files under FRAMES_PREFIX.
 */
export async function serveProject(root: string, rendererFiles: RendererFiles): Promise<ProjectServer> {
  const server: Server = createServer((request, response) => {
    const serving = request.url?.startsWith(FRAMES_PREFIX) ? serveRendererFile(rendererFiles, request, response) : serveFileOf(root, request, response);
    serving.catch((error: Error) => {
      if (!response.headersSent) response.writeHead(500).end(error.message);
      else response.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
