import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { isFolderOutput } from "@compose/core";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { isFinalEvent } from "../jobs/job-events.js";
import type { RenderJob } from "../jobs/render-job.js";
import { contentTypeOf, listSequence } from "../output/output-files.js";
import { registerBatchRoutes } from "./batch-routes.js";
import { HttpError, outputGone } from "./errors.js";
import { parseRenderRequest, type RequestContext } from "./render-request.js";
import { acceptOnce, replayHeader } from "./idempotency.js";
import { findRequest, newJob, resumeRequests, routeState, submitClaimed, type RouteContext } from "./route-state.js";
import { sendFile } from "./send-file.js";
import { openEventStream, type EventStream } from "./sse.js";
import { renderUrls } from "../jobs/render-urls.js";

export type { RouteContext } from "./route-state.js";

type IdRequest = FastifyRequest<{ Params: { id: string } }>;
type FileRequest = FastifyRequest<{ Params: { id: string; file: string } }>;

/** What the server does with its routes' streams when it shuts down. */
export interface Routes {
  /** Ends the streams of listeners still following a request this server does not end (another server's, with --queue). */
  endFollowers(): void;
  /** Hands the requests that had not ended when the server last stopped to the backend again: before it listens. */
  resume(): Promise<void>;
}

/** Where the server publishes the JSON Schema of `compose info --json`, beside /openapi.json. */
export const INFO_SCHEMA_PATH = "/schemas/info.json";

/** Every route of the server; GET /openapi.json describes exactly these (a test holds them together). */
export function registerRoutes(app: FastifyInstance, context: RouteContext): Routes {
  const { backend } = context;
  const followers = new Set<EventStream>();
  const state = routeState(context);
  const requestContext: RequestContext = { ...context, webhooks: context.webhooks !== undefined };

  async function findJob(id: string): Promise<RenderJob> {
    const job = await findRequest(state, id);
    if (!job) throw new HttpError(404, "unknown-render", `there is no render ${id}`);
    return job;
  }

  /** A new request, or with an Idempotency-Key sent before the one it made then. */
  async function createJob(request: FastifyRequest, reply: FastifyReply): Promise<RenderJob> {
    const id = await acceptOnce(request, reply, context.records?.store, async () => {
      const id = randomUUID();
      const job = newJob(state, id, await parseRenderRequest(request.body, requestContext, id));
      await submitClaimed(state, [job], () => backend.submit(job));
      return id;
    });
    return findJob(id);
  }

  /** A completed job's output, or why there is none yet. */
  async function completedJob(id: string): Promise<RenderJob> {
    const job = await findJob(id);
    const { state } = job.snapshot();
    if (state === "queued" || state === "running") {
      throw new HttpError(409, "output-not-ready", `render ${id} is ${state}; its output exists once it has completed`);
    }
    if (state !== "completed") throw new HttpError(409, "no-output", `render ${id} ${state === "failed" ? "failed" : "was cancelled"} and has no output`);
    return job;
  }

  // HEAD as GET: probes that only look at the status need no token either.
  app.get("/health", { exposeHeadRoute: true }, async () => ({ status: "ok" }));

  app.get("/openapi.json", async () => context.openApiDocument);

  app.get(INFO_SCHEMA_PATH, async (_request, reply) => reply.type("application/schema+json").send(context.infoSchema));

  app.get("/render/queue", () => backend.counts());

  app.post("/render", async (request, reply) => {
    const job = await createJob(request, reply);
    const { state, position } = job.snapshot();
    return reply
      .status(202)
      .header("location", renderUrls.status(job.id))
      .send({ requestId: job.id, state, position, statusUrl: renderUrls.status(job.id) });
  });

  app.post("/render/stream", async (request, reply) => {
    // The stream opens only once submission has succeeded, so a refusal is still a 4xx; what
    // happened meanwhile (`queued`) is told first, from the job's history.
    const job = await createJob(request, reply);
    const stream = followJob(reply, job, { location: renderUrls.status(job.id), ...replayHeader(reply) });
    // A client that goes away no longer wants the render: its slot or place goes to the next one.
    stream.onClose(() => {
      if (!job.terminal) void backend.cancel(job.id);
    });
  });

  app.get("/render/:id", async (request: IdRequest) => (await findJob(request.params.id)).snapshot());

  // Any number of listeners, from the request's start; one that goes away cancels nothing.
  app.get("/render/:id/events", async (request: IdRequest, reply: FastifyReply) => {
    const stream = followJob(reply, await findJob(request.params.id));
    followers.add(stream);
    stream.onClose(() => followers.delete(stream));
  });

  app.delete("/render/:id", async (request: IdRequest) => {
    const job = await findJob(request.params.id);
    if (job.terminal) throw new HttpError(409, "not-cancellable", `render ${job.id} has already ended (${job.snapshot().state})`);
    return (await backend.cancel(job.id))!.snapshot();
  });

  app.get("/render/:id/output", async (request: IdRequest, reply: FastifyReply) => {
    const job = await completedJob(request.params.id);
    if (!isFolderOutput(job.spec.options.format)) return sendFile(request, reply, job.spec.output, contentTypeOf(job.spec.output));
    // A sequence is many files: list them, each downloadable on its own (with ranges).
    const files = await listSequence(job.spec.output).catch(() => {
      throw outputGone();
    });
    return { format: job.spec.options.format, files: files.map((file) => ({ ...file, url: renderUrls.outputFile(job.id, file.name) })) };
  });

  app.get("/render/:id/output/:file", async (request: FileRequest, reply: FastifyReply) => {
    const job = await completedJob(request.params.id);
    const { file } = request.params;
    const known = isFolderOutput(job.spec.options.format) && (await listSequence(job.spec.output).catch(() => [])).some((entry) => entry.name === file);
    if (!known) throw new HttpError(404, "unknown-file", `render ${job.id} has no output file ${file}`);
    return sendFile(request, reply, join(job.spec.output, file), contentTypeOf(file));
  });

  registerBatchRoutes(app, state);
  return { endFollowers: () => followers.forEach((stream) => stream.end()), resume: () => resumeRequests(state) };
}

/** Takes the reply over as an event stream telling the job's events from its start to its end. */
function followJob(reply: FastifyReply, job: RenderJob, headers: Record<string, string> = {}): EventStream {
  reply.hijack();
  const stream = openEventStream(reply.raw, headers);
  const unfollow = job.follow((event) => {
    stream.send(event);
    if (isFinalEvent(event)) stream.end();
  });
  stream.onClose(unfollow);
  return stream;
}
