import { randomUUID } from "node:crypto";
import { mkdir, realpath } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { removeOrphanedStaging } from "@compose/renderer";
import type { FastifyInstance } from "fastify";
import { DEFAULT_MAX_WORKERS_PER_RENDER, defaultStatePath, type ServerConfig } from "./config/server-config.js";
import { requireBearerToken } from "./http/auth.js";
import { createHttpApp } from "./http/http-app.js";
import { registerRoutes } from "./http/routes.js";
import { renderExecutor, type RenderSettings } from "./jobs/render-executor.js";
import { openApiDocument } from "./openapi/openapi-document.js";
import { infoJsonSchema } from "./openapi/json-schema.js";
import { QueueClosedError, type RenderBackend } from "./queue/render-backend.js";
import { RenderQueue } from "./queue/render-queue.js";
import { RedisRenderBackend } from "./distributed/redis-backend.js";
import { WebhookSender } from "./webhooks/webhook-sender.js";
import { RequestRecords } from "./state/request-records.js";
import { StateStore } from "./state/state-store.js";

/** A producer created without a network policy (a library user's) imposes none. */
const ALLOW_REQUESTS_EVERYTHING = { mode: "all", allowHosts: [], acceptRequestHosts: true } as const;

export interface ProducerOptions {
  /** Renderer settings of this machine (capture mode, ready timeout). */
  renderSettings?: RenderSettings;
  /** Another queue backend; by default BullMQ on Redis when the config has `queue`, else the in-process FIFO queue. */
  backend?: RenderBackend;
  /** Where failures of the server itself (not of renders) are reported, one line each. */
  logError?: (line: string) => void;
}

export interface Producer {
  readonly app: FastifyInstance;
  readonly backend: RenderBackend;
  /** Starts listening; resolves to the base URL of the address bound, with the real port when the config asked for 0. */
  listen(): Promise<string>;
  /**
   * Stops accepting connections, lets running renders finish within the configured grace period
   * (cancelling them after it, which leaves no output), and resolves once every connection has ended.
   */
  close(): Promise<void>;
}

export async function createProducer(config: ServerConfig, options: ProducerOptions = {}): Promise<Producer> {
  // Real paths, so that the symlink check compares like with like.
  const projectsDir = await realpath(config.projectsDir);
  await mkdir(config.outputsDir, { recursive: true });
  const outputsDir = await realpath(config.outputsDir);
  // First, so that a second server on the same store stops before it touches anything.
  const store = StateStore.open(config.statePath ?? defaultStatePath(outputsDir));
  // A server killed before (kill -9) left its renders' staging here; no later render has its name.
  await removeOrphanedStaging(outputsDir);
  let backend: RenderBackend;
  try {
    backend =
      options.backend ??
      (config.queue
        ? // Requests wait and run in the cluster behind this Redis; `compose worker` processes render them.
          await RedisRenderBackend.connect({
            url: config.queue,
            maxConcurrentRenders: config.maxConcurrentRenders,
            maxQueue: config.maxQueue,
            chunkSize: config.chunkSize,
            outputsDir,
            outputsMark: store.meta("outputs-mark", randomUUID),
            logError: options.logError,
          })
        : new RenderQueue({
            maxConcurrentRenders: config.maxConcurrentRenders,
            maxQueue: config.maxQueue,
            execute: renderExecutor(options.renderSettings ?? {}),
          }));
  } catch (error) {
    store.close();
    throw error;
  }
  const app = createHttpApp({ logError: options.logError ?? (() => undefined), routeGuide: "GET /openapi.json lists the routes" });
  let closing: Promise<void> | undefined;
  app.addHook("onRequest", async () => {
    if (closing) throw new QueueClosedError();
  });
  if (config.token !== undefined) requireBearerToken(app, config.token);
  const network = options.renderSettings?.network ?? ALLOW_REQUESTS_EVERYTHING;
  // Webhooks are held to the policy the renders are: the server connects only where its pages may.
  const webhooks = config.webhookSecret === undefined ? undefined : new WebhookSender({ secret: config.webhookSecret, network, journal: store });
  const routes = registerRoutes(app, {
    backend,
    projectsDir,
    outputsDir,
    maxWorkersPerRender: config.maxWorkersPerRender ?? DEFAULT_MAX_WORKERS_PER_RENDER,
    maxBatchRows: config.maxBatchRows,
    maxBatchBodyBytes: config.maxBatchBodyBytes,
    network,
    webhooks,
    records: new RequestRecords(store, webhooks),
    openApiDocument: openApiDocument(),
    infoSchema: infoJsonSchema(),
  });
  await routes.resume();

  return {
    app,
    backend,
    async listen() {
      await app.listen({ host: config.host, port: config.port });
      // The address really bound (Fastify would name a loopback one for 0.0.0.0).
      const { address, port } = app.server.address() as AddressInfo;
      return `http://${address.includes(":") ? `[${address}]` : address}:${port}`;
    },
    close() {
      closing ??= (async () => {
        const connectionsEnded = app.close();
        await backend.shutdown(config.shutdownGraceMs);
        // Deliveries still retrying stop here; the state store has them, and the next start goes on.
        webhooks?.close();
        // Every request this server answers for has ended; listeners of others' would hold it open.
        routes.endFollowers();
        await connectionsEnded;
        store.close();
      })();
      return closing;
    },
  };
}
