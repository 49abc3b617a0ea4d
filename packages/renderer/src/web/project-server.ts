import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import sirv from "sirv";
import { MISSING, projectFileProblem } from "../common/project-file.js";

export interface ProjectServer {
  /** Base URL ending in `/`; a project file's URL is its path relative to the root appended to it. */
  baseUrl: string;
  close(): Promise<void>;
}

/** URL prefix of the renderer's own files (extracted video frames), apart from the project's. */
export const FRAMES_PREFIX = "/__compose/frames/";

/**
 * Why a URL path does not name a project file of `root` (see checkProjectFile), or undefined when
 * it does: the rule it breaks, or that it does not exist.
 */
export async function whyNotServed(root: string, urlPath: string): Promise<string | undefined> {
  let path: string;
  try {
    path = decodeURIComponent(urlPath.split("?")[0]!);
  } catch {
    return MISSING;
  }
  return projectFileProblem(root, path.replace(/^\/+/, ""));
}

/** Whether a URL path names a project file of `root`: whyNotServed has no reason. */
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
    whyNotServed(dir, request.url ?? "/")
      .then((why) => {
        if (why === undefined) return files(request, response, next);
        // Absence is no rule: only a broken rule is named to the render.
        if (why !== MISSING) response.setHeader(REFUSED_HEADER, why);
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
