import { randomUUID } from "node:crypto";
import { join } from "node:path";
import type { OperatorNetworkPolicy } from "@compose/renderer";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { isFinalEvent, type JobEvent } from "../jobs/job-events.js";
import { RenderJob } from "../jobs/render-job.js";
import { renderUrls } from "../jobs/render-urls.js";
import { contentTypeOf, listSequence } from "../output/output-files.js";
import type { RenderBackend } from "../queue/render-backend.js";
import { HttpError, outputGone } from "./errors.js";
import { parseRenderRequest } from "./render-request.js";
import { sendFile } from "./send-file.js";
import { openEventStream } from "./sse.js";

export interface RouteContext {
  backend: RenderBackend;
  projectsDir: string;
  outputsDir: string;
  maxWorkersPerRender: number;
  /** What requests may ask of the network: no more than the renderer's own policy. */
  network: OperatorNetworkPolicy;
  openApiDocument: object;
}

type IdRequest = FastifyRequest<{ Params: { id: string } }>;
type FileRequest = FastifyRequest<{ Params: { id: string; file: string } }>;

/** Every route of the server; GET /openapi.json describes exactly these (a test holds them together). */
export function registerRoutes(app: FastifyInstance, context: RouteContext): void {
  const { backend } = context;

  async function findJob(id: string): Promise<RenderJob> {
    const job = await backend.find(id);
    if (!job) throw new HttpError(404, "unknown-render", `there is no render ${id}`);
    return job;
  }

  async function createJob(request: FastifyRequest): Promise<RenderJob> {
    const id = randomUUID();
    return new RenderJob(id, await parseRenderRequest(request.body, context, id));
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

  app.get("/health", async () => ({ status: "ok" }));

  app.get("/openapi.json", async () => context.openApiDocument);

  app.get("/render/queue", () => backend.counts());

  app.post("/render", async (request, reply) => {
    const job = await createJob(request);
    await backend.submit(job);
    const { state, position } = job.snapshot();
    return reply
      .status(202)
      .header("location", renderUrls.status(job.id))
      .send({ requestId: job.id, state, position, statusUrl: renderUrls.status(job.id) });
  });

  app.post("/render/stream", async (request, reply) => {
    const job = await createJob(request);
    // Events raised while the job is being submitted (`queued`) wait here until the stream is
    // open; the stream opens only once submission has succeeded, so a refusal is still a 4xx.
    const early: JobEvent[] = [];
    let deliver = (event: JobEvent) => void early.push(event);
    const unsubscribe = job.subscribe((event) => deliver(event));
    try {
      await backend.submit(job);
    } catch (error) {
      unsubscribe();
      throw error;
    }
    reply.hijack();
    const stream = openEventStream(reply.raw, { location: renderUrls.status(job.id) });
    deliver = (event) => {
      stream.send(event);
      if (isFinalEvent(event)) stream.end();
    };
    early.forEach(deliver);
    // A client that goes away no longer wants the render: its slot or place goes to the next one.
    stream.onClose(() => {
      unsubscribe();
      if (!job.terminal) void backend.cancel(job.id);
    });
  });

  app.get("/render/:id", async (request: IdRequest) => (await findJob(request.params.id)).snapshot());

  app.delete("/render/:id", async (request: IdRequest) => {
    const job = await findJob(request.params.id);
    if (job.terminal) throw new HttpError(409, "not-cancellable", `render ${job.id} has already ended (${job.snapshot().state})`);
    return (await backend.cancel(job.id))!.snapshot();
  });

  app.get("/render/:id/output", async (request: IdRequest, reply: FastifyReply) => {
    const job = await completedJob(request.params.id);
    if (job.spec.options.format !== "png-sequence") return sendFile(request, reply, job.spec.output, contentTypeOf(job.spec.output));
    // A sequence is many files: list them, each downloadable on its own (with ranges).
    const files = await listSequence(job.spec.output).catch(() => {
      throw outputGone();
    });
    return { format: "png-sequence", files: files.map((file) => ({ ...file, url: renderUrls.outputFile(job.id, file.name) })) };
  });

  app.get("/render/:id/output/:file", async (request: FileRequest, reply: FastifyReply) => {
    const job = await completedJob(request.params.id);
    const { file } = request.params;
    const known = job.spec.options.format === "png-sequence" && (await listSequence(job.spec.output).catch(() => [])).some((entry) => entry.name === file);
    if (!known) throw new HttpError(404, "unknown-file", `render ${job.id} has no output file ${file}`);
    return sendFile(request, reply, join(job.spec.output, file), contentTypeOf(file));
  });
}
