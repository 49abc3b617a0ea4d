import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import sirv from "sirv";
import { checkProjectFile } from "../../common/project-file.js";

export interface ProjectServer {
  /** Base URL ending in `/`; a project file's URL is its path relative to the root appended to it. */
  baseUrl: string;
  close(): Promise<void>;
}

/** URL prefix of the renderer's own files (extracted video frames), apart from the project's. */
export const FRAMES_PREFIX = "/__compose/frames/";

/** Whether a URL path names a project file of `root` (see checkProjectFile): what the server serves. */
export async function servesFile(root: string, urlPath: string): Promise<boolean> {
  let path: string;
  try {
    path = decodeURIComponent(urlPath.split("?")[0]!);
  } catch {
    return false;
  }
  return (await checkProjectFile(root, path.replace(/^\/+/, ""))).kind === "file";
}

type Handler = (request: IncomingMessage, response: ServerResponse, next: () => void) => void;

/** Serves only what servesFile allows from `dir`; anything else is 404, never a listing. */
function regularFilesOf(dir: string): Handler {
  const files = sirv(dir, { dev: true, dotfiles: false, etag: false });
  return (request, response, next) => {
    servesFile(dir, request.url ?? "/").then((allowed) => (allowed ? files(request, response, next) : next()), next);
  };
}

/**
 * Serves a project directory to the browser on an ephemeral loopback port, and the extracted
 * video frames under FRAMES_PREFIX.
 */
export async function serveProject(root: string, framesDir: string): Promise<ProjectServer> {
  const files = regularFilesOf(root);
  const frames = regularFilesOf(framesDir);
  const notFound = (response: ServerResponse) => () => {
    response.statusCode = 404;
    response.end("not found");
  };
  const server: Server = createServer((request, response) => {
    if (request.url?.startsWith(FRAMES_PREFIX)) {
      request.url = request.url.slice(FRAMES_PREFIX.length - 1);
      frames(request, response, notFound(response));
    } else {
      files(request, response, notFound(response));
    }
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
