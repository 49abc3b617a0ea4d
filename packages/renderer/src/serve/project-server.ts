import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import sirv from "sirv";

export interface ProjectServer {
  /** Base URL ending in `/`; a project file's URL is its path relative to the root appended to it. */
  baseUrl: string;
  close(): Promise<void>;
}

/** Serves a project directory to the browser on an ephemeral loopback port. */
export async function serveProject(root: string): Promise<ProjectServer> {
  const files = sirv(root, { dev: true, dotfiles: false, etag: false });
  const server: Server = createServer((request, response) =>
    files(request, response, () => {
      response.statusCode = 404;
      response.end("not found");
    }),
  );
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
