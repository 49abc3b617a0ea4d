import { createServer, request as httpRequest, type IncomingMessage } from "node:http";
import { connect, type AddressInfo, type Socket } from "node:net";
import type { Ruling } from "./network-policy.js";

export interface PolicyProxy {
  /** For Chromium's --proxy-server and ffmpeg's -http_proxy. */
  url: string;
  close(): Promise<void>;
}

/**
 * The render's proxy. Every connection of the browser goes through it, so it holds what request
 * interception does not see (WebSocket connections) to the same ruling; so does every connection
 * ffmpeg makes for remote media, each redirect included. It connects to the address the ruling
 * checked: a name cannot resolve to a public address for the check and to a private one for the
 * connection (DNS rebinding).
 */
export async function startPolicyProxy(ruling: (url: string) => Promise<Ruling>, onRefused: (url: string, reason: string) => void): Promise<PolicyProxy> {
  const sockets = new Set<Socket>();
  const server = createServer((request, response) => {
    const url = request.url ?? "";
    void ruling(url).then((ruled) => {
      if (ruled.reason !== undefined) {
        onRefused(url, ruled.reason);
        response.writeHead(403).end();
        return;
      }
      // To the checked address; the Host header the browser sent still names the site.
      const target = new URL(url);
      const host = ruled.address ?? target.hostname.replace(/^\[|\]$/g, "");
      const options = { host, port: target.port || 80, path: `${target.pathname}${target.search}`, method: request.method, headers: request.headers };
      const upstream = httpRequest(options, (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      });
      upstream.on("error", () => response.destroy());
      request.pipe(upstream);
    });
  });
  const tunnel = (client: Socket, head: Buffer, target: string, url: string, preamble: string | undefined) => {
    void ruling(url).then((ruled) => {
      if (ruled.reason !== undefined) {
        onRefused(url, ruled.reason);
        client.end("HTTP/1.1 403 Forbidden\r\n\r\n");
        return;
      }
      const { hostname, port } = new URL(`http://${target}`);
      const upstream = connect(Number(port) || 80, ruled.address ?? hostname.replace(/^\[|\]$/g, ""), () => {
        if (preamble === undefined) client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
        else upstream.write(preamble);
        if (head.length > 0) upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      for (const socket of [upstream, client]) socket.on("error", () => (socket === client ? upstream : client).destroy());
      sockets.add(upstream);
      upstream.once("close", () => sockets.delete(upstream));
    });
  };
  // https and wss: a tunnel to host:port.
  server.on("connect", (request: IncomingMessage, client: Socket, head: Buffer) => {
    const target = request.url ?? "";
    tunnel(client, head, target, `https://${target}/`, undefined);
  });
  // ws: an absolute-URL upgrade request, passed on as it came.
  server.on("upgrade", (request: IncomingMessage, client: Socket, head: Buffer) => {
    const url = new URL(request.url ?? "", "http://invalid");
    const lines = [`${request.method} ${url.pathname}${url.search} HTTP/1.1`];
    for (let i = 0; i < request.rawHeaders.length; i += 2) lines.push(`${request.rawHeaders[i]}: ${request.rawHeaders[i + 1]}`);
    tunnel(client, head, url.host, url.href.replace(/^http/, "ws"), `${lines.join("\r\n")}\r\n\r\n`);
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
