/** A plain static file server, as any web host serves a page that embeds <compose-player>: no runtime, no rewriting. */
import { readFile, stat } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize, sep } from "node:path";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".png": "image/png",
  ".wav": "audio/wav",
  ".mp4": "video/mp4",
  ".woff2": "font/woff2",
};

export interface StaticServer {
  /** The root's URL, ending in `/`. */
  url: string;
  close(): Promise<void>;
}

/** Serves the files under `root` on 127.0.0.1 (a folder's index.html for its path). */
export async function serveStatic(root: string): Promise<StaticServer> {
  const server: Server = createServer((request, response) => {
    void (async () => {
      const path = normalize(decodeURIComponent(new URL(request.url ?? "/", "http://x").pathname));
      let file = join(root, path);
      if (!file.startsWith(root + sep) && file !== root) return void response.writeHead(403).end();
      if ((await stat(file).catch(() => undefined))?.isDirectory()) file = join(file, "index.html");
      const body = await readFile(file).catch(() => undefined);
      if (!body) return void response.writeHead(404).end("not found");
      response.writeHead(200, { "Content-Type": TYPES[extname(file)] ?? "application/octet-stream", "Content-Length": body.length });
      response.end(request.method === "HEAD" ? undefined : body);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}
