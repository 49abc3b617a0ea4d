export { createProducer, type Producer, type ProducerOptions } from "./server.js";
export {
  serverConfigFromFlags,
  ServerConfigError,
  DEFAULT_HOST,
  DEFAULT_PORT,
  DEFAULT_MAX_QUEUE,
  DEFAULT_SHUTDOWN_GRACE_SECONDS,
  MAX_BODY_BYTES,
  MAX_CHUNK_SIZE,
  defaultStatePath,
  BATCH_ROW_LIMITS,
  BATCH_BODY_MIB_LIMITS,
  type ServerConfig,
  type ServeFlags,
} from "./config/server-config.js";
export type { RenderBackend, QueueCounts } from "./queue/render-backend.js";
export { QueueFullError, QueueClosedError, JobPayloadTooLargeError, QueueUnavailableError } from "./queue/render-backend.js";
export { RenderQueue, type RenderQueueOptions } from "./queue/render-queue.js";
export { RenderJob, type RenderStatus, type RenderState, type RenderJobSpec } from "./jobs/render-job.js";
export type { JobEvent, QueueEvent, ClientRenderEvent } from "./jobs/job-events.js";
export { JOB_EVENT_TYPES } from "./jobs/job-events.js";
export { renderExecutor, type JobExecutor, type RenderSettings } from "./jobs/render-executor.js";
export { openApiDocument } from "./openapi/openapi-document.js";
export { infoJsonSchema } from "./openapi/json-schema.js";
export { workerConfigFromFlags, type WorkerConfig, type WorkerFlags } from "./config/worker-config.js";
export { RedisRenderBackend, type RedisBackendOptions } from "./distributed/redis-backend.js";
export { startRenderWorker, type RenderWorker, type RenderWorkerOptions } from "./distributed/render-worker.js";
export { QueueConnectionError } from "./distributed/redis-connection.js";
export { StateStoreError } from "./state/state-store.js";
export { closeWithinGrace } from "./lifetime/shutdown-grace.js";
export { MAX_JOB_PAYLOAD_BYTES } from "./distributed/protocol.js";
export { WEBHOOK_HEADERS, webhookSignature } from "./webhooks/webhook-signature.js";
