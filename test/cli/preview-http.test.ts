/**
 * The preview's server over HTTP, as a page or a stranger reaches it: only this machine's names
 * and the page's own JSON requests are answered, every refusal is the producer's
 * `{error: {code, message}}` (one body limit, one JSON parser), project files carry an ETag, and
 * a page following the project hears of each save.
 */
import { request } from "node:http";
import { writeFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_BODY_BYTES } from "@compose/producer";
import { renderExecutor } from "@compose/producer/render-executor";
import { startPreviewServer, type PreviewServer } from "../../packages/cli/src/preview/server.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";

let project: TempProject;
let server: PreviewServer;

beforeAll(async () => {
  project = await createProject({ "index.html": compositionHtml({ id: "main", duration: 1 }), "notes.txt": "some notes" }, { prefix: "compose-preview-http-" });
  server = await startPreviewServer({
    entryFile: project.path("index.html"),
    pathArg: project.dir,
    pathIsFolder: false,
    cwd: project.dir,
    host: "127.0.0.1",
    port: 0,
    runtimeBundle: () => "",
    executeRender: renderExecutor({}),
    nameOf: () => "index",
    planMedia: async () => [],
    framesDir: project.path("frames"),
  });
});

afterAll(async () => {
  await server?.close();
  await project?.remove();
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request with exactly these headers (a Host of another name too, which fetch would not send). */
function ask(path: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const sent = request(new URL(path, server.url), { method: options.method ?? "GET", headers: options.headers }, (response) => {
      let body = "";
      response.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, body }));
    });
    sent.on("error", reject);
    sent.end(options.body);
  });
}

const postJson = (path: string, body: string, headers: Record<string, string> = {}) =>
  ask(path, { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body });

function refusal(answer: Answer): unknown {
  expect(answer.headers["content-type"]).toMatch(/^application\/json/);
  return JSON.parse(answer.body);
}

describe("who the preview answers", () => {
  it("refuses a host name that is not this machine's (DNS rebinding)", async () => {
    const answer = await ask("/notes.txt", { headers: { Host: "attacker.example:4400" } });
    expect(answer.status).toBe(403);
    expect(refusal(answer)).toEqual({
      error: { code: "forbidden-host", message: "the preview answers requests to this machine's names only (got attacker.example)" },
    });
    expect((await ask("/notes.txt", { headers: { Host: "localhost:4400" } })).status).toBe(200);
  });

  it("answers GET, HEAD and POST only", async () => {
    const answer = await ask("/notes.txt", { method: "PUT", body: "x" });
    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toBe("GET, HEAD, POST");
    expect(refusal(answer)).toMatchObject({ error: { code: "method-not-allowed" } });
  });

  it("takes POST on its own endpoints only, and only JSON from its own origin", async () => {
    const outside = await postJson("/notes.txt", "{}");
    expect(outside.status).toBe(405);
    expect(refusal(outside)).toEqual({ error: { code: "method-not-allowed", message: "only the preview's own endpoints accept POST" } });
    const foreign = await postJson("/__compose/media", "{}", { Origin: "http://attacker.example" });
    expect(foreign.status).toBe(403);
    expect(refusal(foreign)).toMatchObject({ error: { code: "forbidden-origin" } });
    const form = await ask("/__compose/media", { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: "a=1" });
    expect(form.status).toBe(403);
  });
});

describe("refusals, in the producer's shape", () => {
  it("a malformed body is invalid-json, a nested one too, a prototype key forbidden-key", async () => {
    const malformed = await postJson("/__compose/renders", "{");
    expect(malformed.status).toBe(400);
    expect(refusal(malformed)).toMatchObject({ error: { code: "invalid-json" } });
    const deep = await postJson("/__compose/renders", `${"[".repeat(500)}${"]".repeat(500)}`);
    expect(deep.status).toBe(400);
    expect(refusal(deep)).toMatchObject({ error: { code: "invalid-json", message: expect.stringMatching(/nested deeper than/) } });
    const prototype = await postJson("/__compose/renders", '{"__proto__": {}}');
    expect(refusal(prototype)).toMatchObject({ error: { code: "forbidden-key" } });
  });

  it("a body over the producer's limit is payload-too-large", async () => {
    const answer = await postJson("/__compose/renders", JSON.stringify({ variables: { text: "x".repeat(MAX_BODY_BYTES) } }));
    expect(answer.status).toBe(413);
    expect(refusal(answer)).toMatchObject({ error: { code: "payload-too-large" } });
  });

  it("names the field at fault", async () => {
    const answer = await ask("/__compose/state?composition=missing.html");
    expect(answer.status).toBe(400);
    expect(refusal(answer)).toEqual({
      error: {
        code: "invalid-request",
        field: "composition",
        message: `composition must be one of the project's compositions: index.html (got "missing.html")`,
      },
    });
    const media = await postJson("/__compose/media", JSON.stringify({ fps: 7, media: [] }));
    expect(refusal(media)).toMatchObject({ error: { code: "invalid-request", field: "fps" } });
  });

  it("an unknown render, file or endpoint is a 404, kept by no cache", async () => {
    for (const [path, code] of [
      ["/__compose/renders/9/events", "unknown-render"],
      ["/missing.txt", "not-found"],
      ["/__compose/nothing", "not-found"],
    ]) {
      const answer = await ask(path!);
      expect(answer.status, path).toBe(404);
      expect(answer.headers["cache-control"], path).toBe("no-store");
      expect(refusal(answer), path).toMatchObject({ error: { code } });
    }
    const cancel = await postJson("/__compose/renders/9/cancel", "{}");
    expect([cancel.status, refusal(cancel)]).toEqual([404, { error: { code: "unknown-render", message: "there is no render 9" } }]);
  });
});

describe("what the page reads", () => {
  it("revalidates project files by their ETag", async () => {
    const first = await ask("/notes.txt");
    expect([first.status, first.body, first.headers["cache-control"]]).toEqual([200, "some notes", "no-cache"]);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/"/);
    const again = await ask("/notes.txt", { headers: { "If-None-Match": etag } });
    expect([again.status, again.body]).toEqual([304, ""]);
  });

  it("answers its state as JSON no cache keeps", async () => {
    const answer = await ask("/__compose/state");
    expect(answer.status).toBe(200);
    expect(answer.headers["cache-control"]).toBe("no-store");
    expect(JSON.parse(answer.body)).toMatchObject({ entry: { url: "/index.html" }, composition: { id: "main" } });
  });

  it("tells a page following the project its version, then each save", async () => {
    const controller = new AbortController();
    const response = await fetch(new URL("/__compose/events", server.url), { signal: controller.signal });
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    const readUntil = async (pattern: RegExp) => {
      while (!pattern.test(text)) text += (await reader.read()).value ?? "";
    };
    await readUntil(/event: hello\n/);
    expect(text).toMatch(/^retry: 1000\n\nevent: hello\ndata: \{"type":"hello","version":\d+\}\n\n/);
    await writeFile(project.path("notes.txt"), "other notes");
    await readUntil(/event: change\ndata: .*\n\n/);
    const change = JSON.parse(/event: change\ndata: (.*)\n\n/.exec(text)![1]!) as { files: string[] };
    expect(change.files).toEqual(["notes.txt"]);
    controller.abort();
  });
});
