/**
 * Every refusal and success the server documents, over real HTTP against `compose serve` with
 * a token, one slot and room for one waiting request. Each status seen is also checked against
 * the OpenAPI document, so the document cannot promise less than the server does.
 */
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, openStream, request, type RequestOptions, type Response } from "../../test/support/http.js";
import { documentedStatuses } from "../../test/support/openapi.js";
import { startServer, type TestServer } from "../../test/support/serve.js";

const TOKEN = "s3cret-token";
let server: TestServer;
let outside: string;

beforeAll(async () => {
  server = await startServer(["--token", TOKEN, "--max-concurrent-renders", "1", "--max-queue", "1"]);
  // A composition outside the projects directory, reachable through symlinks inside it.
  outside = await mkdtemp(join(tmpdir(), "compose-outside-"));
  await mkdir(join(outside, "project"));
  await writeFile(join(outside, "project", "index.html"), "<!doctype html>");
  await symlink(join(outside, "project"), join(server.projectsDir, "escape"));
  await symlink(join(outside, "project", "index.html"), join(server.projectsDir, "link.html"));
  await mkdir(join(server.projectsDir, "piped"));
  execFileSync("mkfifo", [join(server.projectsDir, "piped", "index.html")]);
});
afterAll(async () => {
  expect(await server.close()).toEqual([]);
  await rm(outside, { recursive: true, force: true });
});

/** A request with the token, to `path` as the OpenAPI document names it (`{id}` filled in from `id`). */
async function call(method: string, template: string, options: RequestOptions & { id?: string; file?: string } = {}): Promise<Response> {
  const path = template.replace("{id}", options.id ?? "").replace("{file}", options.file ?? "");
  return request(`${server.url}${path}`, { method, token: TOKEN, ...options });
}

/** The response has `status`, and the OpenAPI document lists that status for the operation. */
function expectStatus(response: Response, status: number, method: string, template: string): void {
  expect(response.status, JSON.stringify(response.json)).toBe(status);
  expect(documentedStatuses(method, template)).toContain(status);
}

async function waitForState(id: string, states: string[]): Promise<any> {
  return eventually(async () => {
    const status = (await call("GET", "/render/{id}", { id })).json;
    return states.includes(status.state) ? status : undefined;
  });
}

describe("401: a token is required everywhere but /health", () => {
  it("refuses requests without the token or with a wrong one", async () => {
    const missing = await request(`${server.url}/render/queue`);
    expectStatus(missing, 401, "GET", "/render/queue");
    expect(missing.json.error.code).toBe("unauthorized");
    expect(missing.headers["www-authenticate"]).toMatch(/^Bearer/);
    expectStatus(await request(`${server.url}/render/queue`, { token: "wrong" }), 401, "GET", "/render/queue");
    expectStatus(await request(`${server.url}/openapi.json`), 401, "GET", "/openapi.json");
    expectStatus(await request(`${server.url}/render`, { body: { composition: "tiny" } }), 401, "POST", "/render");
    expectStatus(await request(`${server.url}/render/stream`, { body: { composition: "tiny" } }), 401, "POST", "/render/stream");
    // Unknown routes too: without the token, nothing about the server is revealed.
    expect((await request(`${server.url}/nothing-here`)).status).toBe(401);
  });

  it("answers /health without one, and the rest with the right one", async () => {
    expectStatus(await request(`${server.url}/health`), 200, "GET", "/health");
    // HEAD as GET: a probe that only looks at the status needs no token either.
    expect((await request(`${server.url}/health`, { method: "HEAD" })).status).toBe(200);
    expect((await request(`${server.url}/render/queue`, { method: "HEAD" })).status).toBe(401);
    const queue = await call("GET", "/render/queue");
    expectStatus(queue, 200, "GET", "/render/queue");
    expect(queue.json).toEqual({ maxConcurrentRenders: 1, activeRenders: 0, queuedRenders: 0 });
  });
});

describe("413: bodies over 256 KiB", () => {
  it("refuses a body over the limit and reads one just under it", async () => {
    const big = { composition: "tiny", variables: { text: "x".repeat(256 * 1024) } };
    const refused = await call("POST", "/render", { body: big });
    expectStatus(refused, 413, "POST", "/render");
    expect(refused.json.error.code).toBe("payload-too-large");
    expectStatus(await call("POST", "/render/stream", { body: big }), 413, "POST", "/render/stream");
    // Just under the limit the body is read, and then refused for what it says.
    const under = await call("POST", "/render", { body: { composition: "tiny", padding: "x".repeat(255 * 1024) } });
    expectStatus(under, 400, "POST", "/render");
    expect(under.json.error.field).toBe("padding");
  });
});

describe("400: unknown fields, bad values and compositions outside the projects directory", () => {
  const cases: Array<[string, unknown, string]> = [
    ["an unknown field", { composition: "tiny", bogus: 1 }, "bogus"],
    ["an fps not in the list", { composition: "tiny", fps: 25 }, "fps"],
    ["crf out of range", { composition: "tiny", crf: 52 }, "crf"],
    ["crf with videoBitrate", { composition: "tiny", crf: 20, videoBitrate: "5M" }, "crf"],
    ["workers out of range", { composition: "tiny", workers: 0 }, "workers"],
    ["variables that are not an object", { composition: "tiny", variables: [] }, "variables"],
    ["strictVariables that is not a boolean", { composition: "tiny", strictVariables: "yes" }, "strictVariables"],
    ["allowMissingAssets that is not a boolean", { composition: "tiny", allowMissingAssets: "yes" }, "allowMissingAssets"],
    ["container mode, which is the CLI's", { composition: "tiny", docker: true }, "docker"],
    ["a missing composition", { format: "mp4" }, "composition"],
    ["a composition that is not a string", { composition: 5 }, "composition"],
    ["..", { composition: "../outside" }, "composition"],
    [".. inside a path", { composition: "tiny/../../outside" }, "composition"],
    ["an absolute path", { composition: "/etc" }, "composition"],
    ["a directory symlink leading out", { composition: "escape" }, "composition"],
    ["a file symlink leading out", { composition: "link.html" }, "composition"],
    ["a path that does not exist", { composition: "missing" }, "composition"],
    ["a directory without index.html", { composition: "." }, "composition"],
  ];
  it.each(cases)("refuses %s, naming the field", async (_, body, field) => {
    for (const path of ["/render", "/render/stream"]) {
      const response = await call("POST", path, { body });
      expectStatus(response, 400, "POST", path);
      expect(response.json.error).toMatchObject({ code: "invalid-request", field });
      expect(response.json.error.message).toMatch(new RegExp(`^${field}\\b`));
    }
  });

  it.each([
    ["a misspelt field", { composition: "tiny", qualty: "high" }, 'qualty is not a render option; did you mean "quality"?'],
    ["a misspelt enum value", { composition: "tiny", quality: "hihg" }, 'quality must be one of draft, standard, high (got hihg); did you mean "high"?'],
    [
      "a misspelt composition path",
      { composition: "tinny" },
      /^composition does not exist in the projects directory \(got tinny\); .*; did you mean "tiny"\?$/,
    ],
    ["a misspelt file in a directory", { composition: "moods/indx.html" }, /; did you mean "moods\/index.html"\?$/],
    [
      "a misspelt file behind a link out of the projects",
      { composition: "escape/indx.html" },
      /^composition does not exist in the projects directory \(got escape\/indx.html\); [^;]*$/,
    ],
    [
      "a misspelt name of a file linked from outside",
      { composition: "lnk.html" },
      /^composition does not exist in the projects directory \(got lnk.html\); [^;]*$/,
    ],
    [
      "an entry that is a FIFO",
      { composition: "piped" },
      "composition piped/index.html is a FIFO (named pipe); only regular files inside the project are read (not-a-project-file; got piped)",
    ],
  ] as const)("names the cause of %s", async (_, body, message) => {
    const response = await call("POST", "/render", { body });
    expectStatus(response, 400, "POST", "/render");
    expect(response.json.error.message).toMatch(typeof message === "string" ? new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`) : message);
  });

  it("refuses a body that is not JSON, or not an object", async () => {
    const broken = await call("POST", "/render", { rawBody: "{not json" });
    expectStatus(broken, 400, "POST", "/render");
    expect(broken.json.error.code).toBe("invalid-json");
    expectStatus(await call("POST", "/render", { body: ["tiny"] }), 400, "POST", "/render");
    const form = await call("POST", "/render", { rawBody: "composition=tiny", contentType: "application/x-www-form-urlencoded" });
    expectStatus(form, 415, "POST", "/render");
    const plain = await call("POST", "/render", { rawBody: '{"composition": "tiny"}', contentType: "text/plain" });
    expectStatus(plain, 415, "POST", "/render");
    expect(plain.json.error).toEqual({ code: "unsupported-media-type", message: "the request body must be JSON (Content-Type: application/json)" });
  });

  it("refuses a body nested thousands deep as invalid JSON, not as a failure of the server", async () => {
    const deep = await call("POST", "/render", { rawBody: `{"composition": "tiny", "metadata": ${'{"a":'.repeat(3000)}1${"}".repeat(3000)}}` });
    expectStatus(deep, 400, "POST", "/render");
    expect(deep.json.error).toEqual({ code: "invalid-json", message: "the request body is not valid JSON: it is nested deeper than the 256 levels allowed" });
  });

  it.each([
    ['{"composition": "tiny", "__proto__": {"admin": true}}', `"__proto__"`],
    ['{"composition": "tiny", "variables": {"constructor": {"prototype": {"admin": true}}}}', `"constructor" holding "prototype"`],
  ])("refuses a prototype key as a forbidden key, not as invalid JSON: %s", async (rawBody, key) => {
    const response = await call("POST", "/render", { rawBody });
    expectStatus(response, 400, "POST", "/render");
    expect(response.json.error).toEqual({ code: "forbidden-key", message: `the request body has the key ${key}, which is never accepted: remove it` });
  });
});

describe("404: unknown ids", () => {
  it("answers 404 for every route that takes an id, and for unknown routes", async () => {
    const id = "00000000-0000-4000-8000-000000000000";
    for (const [method, template] of [
      ["GET", "/render/{id}"],
      ["DELETE", "/render/{id}"],
      ["GET", "/render/{id}/output"],
      ["GET", "/render/{id}/output/{file}"],
    ] as const) {
      const response = await call(method, template, { id, file: "frame_000000.png" });
      expectStatus(response, 404, method, template);
      expect(response.json.error.code).toBe("unknown-render");
    }
    const route = await call("GET", "/render/a/b/c");
    expect(route.status).toBe(404);
    expect(route.json.error.code).toBe("unknown-route");
  });
});

describe("a busy queue: 202, 429, 409 and DELETE", () => {
  it("accepts one waiting request, refuses the next with 429, and cancels on DELETE", async () => {
    const holder = await openStream(server.url, { composition: "blocker.html" }, TOKEN);
    const holderId = (await holder.next("running")).data.requestId;

    const accepted = await call("POST", "/render", { body: { composition: "tiny" } });
    expectStatus(accepted, 202, "POST", "/render");
    const id = accepted.json.requestId;
    expect(accepted.json).toEqual({ requestId: id, state: "queued", position: 1, statusUrl: `/render/${id}` });
    expect(accepted.headers.location).toBe(`/render/${id}`);
    expect((await call("GET", "/render/queue")).json).toEqual({ maxConcurrentRenders: 1, activeRenders: 1, queuedRenders: 1 });

    for (const path of ["/render", "/render/stream"]) {
      const full = await call("POST", path, { body: { composition: "tiny" } });
      expectStatus(full, 429, "POST", path);
      expect(full.json.error.code).toBe("queue-full");
    }
    expect((await call("GET", "/render/queue")).json).toEqual({ maxConcurrentRenders: 1, activeRenders: 1, queuedRenders: 1 });

    const status = await call("GET", "/render/{id}", { id });
    expectStatus(status, 200, "GET", "/render/{id}");
    expect(status.json).toMatchObject({ requestId: id, state: "queued", position: 1, composition: "tiny", format: "mp4", startedAt: null });
    const early = await call("GET", "/render/{id}/output", { id });
    expectStatus(early, 409, "GET", "/render/{id}/output");
    expect(early.json.error.code).toBe("output-not-ready");

    const cancelled = await call("DELETE", "/render/{id}", { id });
    expectStatus(cancelled, 200, "DELETE", "/render/{id}");
    expect(cancelled.json).toMatchObject({ state: "cancelled", error: { code: "cancelled" } });
    expectStatus(await call("DELETE", "/render/{id}", { id }), 409, "DELETE", "/render/{id}");

    // DELETE of a running render answers once it has stopped, and its stream ends with the news.
    const stopped = await call("DELETE", "/render/{id}", { id: holderId });
    expect(stopped.json).toMatchObject({ state: "cancelled", error: { code: "cancelled" } });
    const events = await holder.ended;
    expect(events[events.length - 1]!.data).toMatchObject({ type: "failed", code: "cancelled" });
    expect((await call("GET", "/render/queue")).json).toEqual({ maxConcurrentRenders: 1, activeRenders: 0, queuedRenders: 0 });
  });
});

describe("outputs", () => {
  it("serves a completed mp4 with its type and length, and byte ranges with 206", async () => {
    const accepted = await call("POST", "/render", { body: { composition: "tiny/index.html", quality: "draft" } });
    expect(accepted.json).toMatchObject({ state: "running", position: null });
    const { requestId: id, output } = await waitForState(accepted.json.requestId, ["completed", "failed"]);
    expect(output).toMatchObject({ url: `/render/${id}/output`, format: "mp4", duration: 0.5, frames: 15 });

    const whole = await call("GET", "/render/{id}/output", { id });
    expectStatus(whole, 200, "GET", "/render/{id}/output");
    expect(whole.headers["content-type"]).toBe("video/mp4");
    expect(whole.headers["accept-ranges"]).toBe("bytes");
    expect(Number(whole.headers["content-length"])).toBe(output.size);
    expect(whole.body.length).toBe(output.size);
    expect(whole.body.subarray(4, 8).toString("latin1")).toBe("ftyp");

    const first = await call("GET", "/render/{id}/output", { id, headers: { range: "bytes=0-99" } });
    expectStatus(first, 206, "GET", "/render/{id}/output");
    expect(first.headers["content-range"]).toBe(`bytes 0-99/${output.size}`);
    expect(first.headers["content-length"]).toBe("100");
    expect(first.body.equals(whole.body.subarray(0, 100))).toBe(true);
    const tail = await call("GET", "/render/{id}/output", { id, headers: { range: "bytes=-10" } });
    expect(tail.status).toBe(206);
    expect(tail.body.equals(whole.body.subarray(-10))).toBe(true);
    const beyond = await call("GET", "/render/{id}/output", { id, headers: { range: `bytes=${output.size}-` } });
    expectStatus(beyond, 416, "GET", "/render/{id}/output");
    expect(beyond.headers["content-range"]).toBe(`bytes */${output.size}`);

    expectStatus(await call("DELETE", "/render/{id}", { id }), 409, "DELETE", "/render/{id}");
  });

  it("lists a png-sequence's frames, each downloadable", async () => {
    const accepted = await call("POST", "/render", { body: { composition: "tiny", format: "png-sequence" } });
    const { requestId: id, output } = await waitForState(accepted.json.requestId, ["completed", "failed"]);
    expect(output).toMatchObject({ format: "png-sequence", frames: 15 });

    const listing = await call("GET", "/render/{id}/output", { id });
    expectStatus(listing, 200, "GET", "/render/{id}/output");
    expect(listing.json.format).toBe("png-sequence");
    expect(listing.json.files.map((file: { name: string }) => file.name)).toEqual(
      Array.from({ length: 15 }, (_, i) => `frame_${String(i).padStart(6, "0")}.png`),
    );
    const sizes = listing.json.files.reduce((sum: number, file: { size: number }) => sum + file.size, 0);
    expect(sizes).toBe(output.size);

    const [frame] = listing.json.files;
    expect(frame.url).toBe(`/render/${id}/output/frame_000000.png`);
    const png = await request(`${server.url}${frame.url}`, { token: TOKEN });
    expectStatus(png, 200, "GET", "/render/{id}/output/{file}");
    expect(png.headers["content-type"]).toBe("image/png");
    expect(png.body.length).toBe(frame.size);
    expect(png.body.subarray(1, 4).toString("latin1")).toBe("PNG");
    const part = await request(`${server.url}${frame.url}`, { token: TOKEN, headers: { range: "bytes=0-7" } });
    expectStatus(part, 206, "GET", "/render/{id}/output/{file}");
    expect(part.body.equals(png.body.subarray(0, 8))).toBe(true);

    for (const file of ["frame_999999.png", "..%2F..%2Fetc%2Fpasswd"]) {
      const missing = await call("GET", "/render/{id}/output/{file}", { id, file });
      expectStatus(missing, 404, "GET", "/render/{id}/output/{file}");
      expect(missing.json.error.code).toBe("unknown-file");
    }
  });

  it("answers 409 for the output of a render that failed", async () => {
    const accepted = await call("POST", "/render", { body: { composition: "odd" } });
    const failed = await waitForState(accepted.json.requestId, ["completed", "failed"]);
    expect(failed).toMatchObject({ state: "failed", error: { code: "invalid-composition" }, output: null });
    const response = await call("GET", "/render/{id}/output", { id: failed.requestId });
    expectStatus(response, 409, "GET", "/render/{id}/output");
    expect(response.json.error.code).toBe("no-output");
  });
});
