/**
 * GET /openapi.json describes exactly the routes the server has: every registered route is
 * documented, every documented operation answers over HTTP, and no other method does.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Fastify from "fastify";
import { RENDER_ERROR_CODES, renderFailedEventSchema, renderOptionsSchema, type RenderFailedEvent } from "@compose/core";
import { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerRoutes } from "../http/routes.js";
import { RenderQueue } from "../queue/render-queue.js";
import { createProducer, type Producer } from "../server.js";
import { request } from "../../test/support/http.js";
import { eventProblems } from "../../test/support/openapi.js";
import { jobEventSchema } from "../jobs/job-events.js";
import { openApiDocument } from "./openapi-document.js";
import { infoJsonSchema } from "./json-schema.js";

type Document = { paths: Record<string, Record<string, unknown>>; components: { schemas: Record<string, any> } };
const document = openApiDocument() as Document;
const METHODS = ["get", "post", "put", "patch", "delete"];

/** `METHOD /path/{param}` for every operation of the document (HEAD ones too, with `head`). */
function documentedOperations(head = false): string[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((key) => METHODS.includes(key) || (head && key === "head"))
      .map((method) => `${method.toUpperCase()} ${path}`),
  );
}

let dir: string;
let producer: Producer;
let url: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "compose-openapi-"));
  producer = await createProducer({
    host: "127.0.0.1",
    port: 0,
    maxConcurrentRenders: 1,
    maxQueue: 1,
    projectsDir: dir,
    outputsDir: join(dir, "out"),
    shutdownGraceMs: 0,
  });
  url = await producer.listen();
});
afterAll(async () => {
  await producer.close();
  await rm(dir, { recursive: true, force: true });
});

describe("routes and document", () => {
  it("documents every route the server registers, and nothing else", async () => {
    const app = Fastify({ exposeHeadRoutes: false });
    const registered: string[] = [];
    app.addHook("onRoute", (route) => {
      for (const method of [route.method].flat()) registered.push(`${method} ${route.url.replace(/:(\w+)/g, "{$1}")}`);
    });
    registerRoutes(app, {
      backend: new RenderQueue({ maxConcurrentRenders: 1, maxQueue: 1, execute: async () => undefined }),
      projectsDir: dir,
      outputsDir: dir,
      maxWorkersPerRender: 1,
      network: { mode: "public", allowHosts: [], acceptRequestHosts: false },
      openApiDocument: document,
      infoSchema: {},
    });
    await app.ready();
    expect(registered.sort()).toEqual(documentedOperations(true).sort());
    for (const operation of registered) {
      const [method, path] = operation.split(" ") as [string, string];
      expect(producer.app.hasRoute({ method: method as "GET", url: path.replace(/\{(\w+)\}/g, ":$1") }), operation).toBe(true);
    }
    await app.close();
  });

  it("answers every documented operation over HTTP, and only those", async () => {
    /** True when some documented operation of `method` has a template matching `path` (`/render/queue` is also `/render/{id}`). */
    const documented = (method: string, path: string) =>
      documentedOperations().some((operation) => {
        const [opMethod, template] = operation.split(" ") as [string, string];
        return opMethod === method && new RegExp(`^${template.replace(/\{\w+\}/g, "[^/]+")}$`).test(path);
      });
    for (const path of Object.keys(document.paths)) {
      const concrete = path.replace("{id}", "00000000-0000-4000-8000-000000000000").replace("{file}", "frame_000000.png");
      for (const method of METHODS.map((name) => name.toUpperCase())) {
        const response = await request(`${url}${concrete}`, { method, ...(method === "POST" ? { body: {} } : {}) });
        const unknownRoute = response.status === 404 && response.json?.error?.code === "unknown-route";
        expect(unknownRoute, `${method} ${concrete}: ${response.status} ${response.body.toString().slice(0, 200)}`).toBe(!documented(method, concrete));
      }
    }
  });

  it("publishes the JSON Schema of compose info --json beside it, at GET /schemas/info.json", async () => {
    const response = await request(`${url}/schemas/info.json`);
    expect(response.status).toBe(200);
    expect(response.headers["content-type"]).toContain("application/schema+json");
    const schema = JSON.parse(response.body.toString("utf8"));
    expect(schema).toEqual(JSON.parse(JSON.stringify(infoJsonSchema())));
    expect(schema.oneOf.map((branch: { properties: { kind: { const: string } } }) => branch.properties.kind.const)).toEqual(["composition", "folder"]);
  });

  it("is what GET /openapi.json serves", async () => {
    const response = await request(`${url}/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.json).toEqual(JSON.parse(JSON.stringify(document)));
    expect(response.json.openapi).toBe("3.1.0");
  });
});

describe("the render request schema", () => {
  it("is core's render options schema plus composition and the request's own fields, closed to other fields", () => {
    const schema = document.components.schemas.RenderRequest;
    expect(Object.keys(schema.properties).sort()).toEqual(
      ["composition", "metadata", "outputName", "webhook", ...Object.keys(renderOptionsSchema.shape)].sort(),
    );
    expect(schema.required).toEqual(["composition"]);
    expect(schema.additionalProperties).toBe(false);
    expect(schema.properties.fps.anyOf.map((rate: { const: number }) => rate.const)).toEqual([24, 30, 60]);
  });

  it("of a batch is the same options with rows and an output template in place of outputName", () => {
    const schema = document.components.schemas.BatchRequest;
    expect(Object.keys(schema.properties).sort()).toEqual(
      ["composition", "metadata", "output", "rows", "webhook", ...Object.keys(renderOptionsSchema.shape)].sort(),
    );
    expect(schema.required).toEqual(["composition", "rows"]);
    expect(schema.additionalProperties).toBe(false);
  });

  it("names every schema it refers to", () => {
    const refs = JSON.stringify(document).match(/#\/components\/schemas\/\w+/g) ?? [];
    for (const ref of new Set(refs)) expect(Object.keys(document.components.schemas), ref).toContain(ref.split("/").pop());
  });
});

describe("the events and the status resource", () => {
  it("are the schemas the server checks them with, converted, with the error codes as the failed event's code", () => {
    const { schemas } = document.components;
    for (const schema of jobEventSchema.options) {
      const type = schema.shape.type.value;
      const name = `${type[0]!.toUpperCase()}${type.slice(1)}Event`;
      const { description: _, ...published } = schemas[name];
      const { $schema: __, description: ___, ...converted } = z.toJSONSchema(schema) as Record<string, unknown>;
      expect(published, name).toEqual(converted);
    }
    expect(schemas.FailedEvent.properties.code.enum).toEqual([...RENDER_ERROR_CODES]);
    expect(schemas.RenderStatus.properties.error.anyOf[0].properties.code.enum).toEqual([...RENDER_ERROR_CODES]);
    expect(schemas.RenderStatus.properties.progress.anyOf[0]).toEqual({ $ref: "#/components/schemas/RenderProgress" });
    expect(Object.keys(schemas.RenderProgress.properties)).toEqual(["stage", "frame", "totalFrames", "percent"]);
  });

  it("refuse a failed event whose code is not an error code, in the document, the schema and the type", () => {
    const failed = { type: "failed", requestId: "r", code: "internal", message: "boom", problems: [{ code: "internal", message: "boom" }] } as const;
    expect(eventProblems(failed)).toEqual([expect.stringMatching(/^\/code must be equal to one of the allowed values/)]);
    expect(eventProblems({ ...failed, code: "internal-error" })).toEqual([]);
    expect(renderFailedEventSchema.safeParse(failed).success).toBe(false);
    // @ts-expect-error: `internal` is not an error code
    const typed: RenderFailedEvent = { type: "failed", code: "internal", message: "boom", problems: [] };
    expect(typed.code).toBe("internal");
  });

  it("refuse a field the schema does not name, so nothing undocumented is sent", () => {
    const progress = { type: "progress", requestId: "r", stage: "capture", frame: 1, totalFrames: 2, percent: 50, framesPerSecond: 10 };
    expect(eventProblems(progress)).toEqual([]);
    expect(eventProblems({ ...progress, eta: 3 })).toEqual([expect.stringMatching(/must NOT have additional properties/)]);
  });
});
