/**
 * A request may not ask for more browser workers than the server allows, nor a wider network
 * than its --network (public by default); the operator can raise both.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request } from "../../test/support/http.js";
import { startServer, type TestServer } from "../../test/support/serve.js";

let defaults: TestServer;
let raised: TestServer;

beforeAll(async () => {
  [defaults, raised] = await Promise.all([startServer(), startServer(["--max-workers-per-render", "8"])]);
});
afterAll(async () => {
  expect([...(await defaults.close()), ...(await raised.close())]).toEqual([]);
});

describe("workers per request", () => {
  it("more than --max-workers-per-render (default 4) is a 400 naming the limit and the flag", async () => {
    const response = await request(`${defaults.url}/render`, { body: { composition: "tiny", workers: 8 } });
    expect(response.status).toBe(400);
    expect(response.json.error).toMatchObject({
      code: "invalid-request",
      field: "workers",
      message: "workers 8 is over this server's limit of 4 per render (its --max-workers-per-render)",
    });
  });

  it("a server started with --max-workers-per-render 8 accepts 8", async () => {
    const response = await request(`${raised.url}/render`, { body: { composition: "tiny", workers: 8 } });
    expect(response.status, JSON.stringify(response.json)).toBe(202);
    await request(`${raised.url}/render/${response.json.requestId}`, { method: "DELETE" });
  });

  it("--max-workers-per-render out of 1-8 is refused at start", async () => {
    await expect(startServer(["--max-workers-per-render", "9"])).rejects.toThrow(/--max-workers-per-render must be an integer from 1 to 8/);
  });
});

describe("network per request", () => {
  it("a request may not widen the server's network policy (public by default)", async () => {
    const response = await request(`${defaults.url}/render`, { body: { composition: "tiny", network: "all" } });
    expect(response.status).toBe(400);
    expect(response.json.error).toMatchObject({ field: "network", message: "network all is wider than this server allows (public, its --network)" });
  });

  it("a request's allowHosts are refused unless the server accepts them", async () => {
    const response = await request(`${defaults.url}/render`, { body: { composition: "tiny", allowHosts: ["127.0.0.1"] } });
    expect(response.status).toBe(400);
    expect(response.json.error.field).toBe("allowHosts");
  });

  it("a request may narrow it", async () => {
    const response = await request(`${defaults.url}/render`, { body: { composition: "tiny", network: "none" } });
    expect(response.status, JSON.stringify(response.json)).toBe(202);
    await request(`${defaults.url}/render/${response.json.requestId}`, { method: "DELETE" });
  });
});
