import { realpath, stat } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join, sep } from "node:path";
import sirv from "sirv";

export interface ProjectServer {
  /** Base URL ending in `/`; a project file's URL is its path relative to the root appended to it. */
  baseUrl: string;
  close(): Promise<void>;
}

/** URL prefix of the renderer's own files (extracted video frames), apart from the project's. */
export const FRAMES_PREFIX = "/__compose/frames/";

/**
 * Whether a URL path names a regular file that really lies inside `root` (a real path): no
 * dotfile or dot-directory, and no symbolic link that leads out of the root.
 */
export async function servesFile(root: string, urlPath: string): Promise<boolean> {
  let path: string;
  try {
    path = decodeURIComponent(urlPath.split("?")[0]!);
  } catch {
    return false;
  }
  const segments = path.split("/").filter(Boolean);
  if (segments.some((segment) => segment.startsWith(".") || segment.includes("\\") || segment.includes("\0"))) return false;
  try {
    const real = await realpath(join(root, ...segments));
    if (!real.startsWith(root + sep)) return false;
    return (await stat(real)).isFile();
  } catch {
    return false;
  }
}

type Handler = (request: IncomingMessage, response: ServerResponse, next: () => void) => void;

/** Serves only what servesFile allows from `dir`; anything else is 404, never a listing. */
function regularFilesOf(dir: string): Handler {
  const files = sirv(dir, { dev: true, dotfiles: false, etag: false });
  return (request, response, next) => {
    // Resolved per request: the frames directory may appear only once the render has begun.
    realpath(dir)
      .then((root) => servesFile(root, request.url ?? "/"))
      .then((allowed) => (allowed ? files(request, response, next) : next()), next);
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
