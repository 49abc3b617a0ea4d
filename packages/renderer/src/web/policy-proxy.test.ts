import { createServer, request, type Server } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Ruling } from "./network-policy.js";
import { startPolicyProxy, type PolicyProxy } from "./policy-proxy.js";

let site: Server;
let port: number;
let proxy: PolicyProxy;
const refused: string[] = [];

/** Names under .invalid never resolve: only a connection to the ruled address can reach the site. */
const ruling = async (url: string): Promise<Ruling> => (url.includes("refused.invalid") ? { reason: "a loopback address" } : { address: "127.0.0.1" });

beforeAll(async () => {
  site = createServer((req, res) => res.end(`site saw ${req.headers.host}${req.url}`));
  site.on("upgrade", (_req, socket) => socket.end("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n"));
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  port = (site.address() as AddressInfo).port;
  proxy = await startPolicyProxy(ruling, (url) => refused.push(url));
});

afterAll(async () => {
  await proxy?.close();
  await new Promise((resolve) => site?.close(resolve));
});

function viaProxy(url: string): Promise<{ status: number; body: string }> {
  const { port: proxyPort } = new URL(proxy.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port: proxyPort, path: url, headers: { host: new URL(url).host } }, (res) => {
      let body = "";
      res.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode!, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

function tunnel(target: string): Promise<string> {
  const { port: proxyPort } = new URL(proxy.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(proxyPort), "127.0.0.1", () => socket.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`));
    let answer = "";
    socket.setEncoding("utf8").on("data", (chunk: string) => {
      answer += chunk;
      if (answer.includes("\r\n\r\n")) {
        socket.destroy();
        resolve(answer.split("\r\n")[0]!);
      }
    });
    socket.on("error", reject);
  });
}

describe("the policy proxy", () => {
  it("connects to the address the ruling checked, not to what the name resolves to now", async () => {
    expect(await viaProxy(`http://rebinding.invalid:${port}/asset.png`)).toEqual({ status: 200, body: `site saw rebinding.invalid:${port}/asset.png` });
    expect(await tunnel(`rebinding.invalid:${port}`)).toBe("HTTP/1.1 200 Connection Established");
  });

  it("refuses what the ruling refuses, plain or tunnelled, and reports it", async () => {
    expect((await viaProxy(`http://refused.invalid:${port}/`)).status).toBe(403);
    expect(await tunnel(`refused.invalid:${port}`)).toBe("HTTP/1.1 403 Forbidden");
    expect(refused).toEqual([`http://refused.invalid:${port}/`, `https://refused.invalid:${port}/`]);
  });
});
