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

/** The project rules, as a refused file is named: what a page asked for and why it is not served. */
export const PROJECT_RULES = {
  missing: "does not exist",
  dotfile: "is a dotfile or inside a dot-directory, which the project rules do not serve to pages",
  outside: "leads out of the project through a symbolic link, which the project rules do not serve to pages",
  notFile: "is not a regular file",
} as const;

/**
 * Why a URL path does not name a regular file that really lies inside `root` (a real path), or
 * undefined when it does: no dotfile or dot-directory, and no symbolic link that leads out of the root.
 */
export async function whyNotServed(root: string, urlPath: string): Promise<string | undefined> {
  let path: string;
  try {
    path = decodeURIComponent(urlPath.split("?")[0]!);
  } catch {
    return PROJECT_RULES.missing;
  }
  const segments = path.split("/").filter(Boolean);
  if (segments.some((segment) => segment.startsWith("."))) return PROJECT_RULES.dotfile;
  if (segments.some((segment) => segment.includes("\\") || segment.includes("\0"))) return PROJECT_RULES.missing;
  try {
    const real = await realpath(join(root, ...segments));
    if (!real.startsWith(root + sep)) return PROJECT_RULES.outside;
    return (await stat(real)).isFile() ? undefined : PROJECT_RULES.notFile;
  } catch {
    return PROJECT_RULES.missing;
  }
}

/** Whether a URL path names a regular file that really lies inside `root`: whyNotServed has no reason. */
export async function servesFile(root: string, urlPath: string): Promise<boolean> {
  return (await whyNotServed(root, urlPath)) === undefined;
}

/** The response header that names the project rule a refused request broke, for the render to tell. */
export const REFUSED_HEADER = "x-compose-refused";

type Handler = (request: IncomingMessage, response: ServerResponse, next: () => void) => void;

/**
 * Serves only what servesFile allows from `dir`; anything else is 404, never a listing. A file
 * that exists but breaks a project rule gets the rule in REFUSED_HEADER.
 */
function regularFilesOf(dir: string): Handler {
  const files = sirv(dir, { dev: true, dotfiles: false, etag: false });
  return (request, response, next) => {
    // Resolved per request: the frames directory may appear only once the render has begun.
    realpath(dir)
      .then((root) => whyNotServed(root, request.url ?? "/"))
      .then((why) => {
        if (why === undefined) return files(request, response, next);
        if (why !== PROJECT_RULES.missing) response.setHeader(REFUSED_HEADER, why);
        next();
      }, next);
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
