import type { Command } from "commander";
// Only the light config module up front: the HTTP server is loaded when `serve` runs, so declaring
// the command (for --help, or a refused flag) does not pay for it.
import {
  BATCH_BODY_MIB_LIMITS,
  BATCH_ROW_LIMITS,
  DEFAULT_HOST,
  DEFAULT_MAX_QUEUE,
  DEFAULT_MAX_WORKERS_PER_RENDER,
  DEFAULT_PORT,
  DEFAULT_SHUTDOWN_GRACE_SECONDS,
  MAX_CHUNK_SIZE,
  redactedUrl,
  serverConfigFromFlags,
  type ServeFlags,
} from "@compose/producer/config";
import { CONCURRENT_RENDERS, MAX_WORKERS } from "@compose/core/options";
import { renderSettingsFromEnvironment } from "../render/render-flags.js";
import { addDeclaredFlags } from "../render/flag-options.js";
import { limitsFromFlags, OPERATOR_NETWORK, operatorNetworkFromFlags, type SafetyFlags } from "../render/safety-flags.js";
import { configOrUsageError } from "../config-usage-error.js";

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost)$/;

export function registerServe(program: Command): void {
  const command = program
    .command("serve")
    .description("Run the producer server: render requests over HTTP, a FIFO queue, server-sent events.")
    .option("--host <host>", `address to listen on (default: ${DEFAULT_HOST})`)
    .option("--port <port>", `port; 0 picks a free one (default: ${DEFAULT_PORT})`)
    .option(
      "--max-concurrent-renders <n>",
      `renders at once, ${CONCURRENT_RENDERS.min}-${CONCURRENT_RENDERS.max} (default: PRODUCER_MAX_CONCURRENT_RENDERS, else ${CONCURRENT_RENDERS.default})`,
    )
    .option("--max-queue <n>", `requests allowed to wait; more get 429 (default: ${DEFAULT_MAX_QUEUE})`)
    .option("--projects <dir>", "directory the compositions of requests are taken from (default: .)")
    .option("--outputs <dir>", "directory outputs are written to, named by request id (default: renders)")
    .option(
      "--state <file>",
      "where the server keeps its requests, batches and webhooks across restarts; one server per file (default: <outputs>/.compose-server/state.db)",
    )
    .option("--token <token>", "require Authorization: Bearer <token> (default: COMPOSE_TOKEN; prefer it, flags show in ps)")
    .option(
      "--shutdown-grace <seconds>",
      `on SIGTERM, the server ends within this; running renders may finish until its last 5 s, then are cancelled (default: ${DEFAULT_SHUTDOWN_GRACE_SECONDS})`,
    )
    .option(
      "--queue <url>",
      "keep requests in a BullMQ queue on this Redis (redis://HOST:PORT), rendered by compose worker processes (default: in this process)",
    )
    .option(
      "--chunk-size <frames>",
      `with --queue: split each render into chunks of this many frames, rendered in parallel by the workers (1-${MAX_CHUNK_SIZE})`,
    )
    .option("--max-workers-per-render <n>", `browser workers one request may ask for, 1-${MAX_WORKERS} (default: ${DEFAULT_MAX_WORKERS_PER_RENDER})`)
    .option(
      "--max-batch-rows <n>",
      `rows one batch (POST /render/batch) may have, ${BATCH_ROW_LIMITS.min}-${BATCH_ROW_LIMITS.max}; more get 413 (default: COMPOSE_MAX_BATCH_ROWS, else ${BATCH_ROW_LIMITS.default})`,
    )
    .option(
      "--max-batch-body-mib <n>",
      `largest body of a batch request in MiB, ${BATCH_BODY_MIB_LIMITS.min}-${BATCH_BODY_MIB_LIMITS.max}; larger gets 413 (default: COMPOSE_MAX_BATCH_BODY_MIB, else ${BATCH_BODY_MIB_LIMITS.default})`,
    )
    .option(
      "--webhook-secret <secret>",
      "sign webhooks with this key (HMAC-SHA256); without it, requests naming a webhook are refused (default: COMPOSE_WEBHOOK_SECRET; prefer it, flags show in ps)",
    );
  addDeclaredFlags(command, "serve-worker", { network: OPERATOR_NETWORK }).action(async (flags: ServeFlags & SafetyFlags) => {
    const config = configOrUsageError(() => serverConfigFromFlags(flags, process.env, process.cwd()));
    const { createProducer, QueueConnectionError, StateStoreError, closeWithinGrace } = await import("@compose/producer");
    let producer: Awaited<ReturnType<typeof createProducer>>;
    try {
      producer = await createProducer(config, {
        renderSettings: { ...renderSettingsFromEnvironment(process.env), limits: limitsFromFlags(flags), network: operatorNetworkFromFlags(flags) },
        logError: (line) => process.stderr.write(`compose serve: ${line}\n`),
      });
    } catch (error) {
      if (!(error instanceof QueueConnectionError || error instanceof StateStoreError)) throw error;
      process.stderr.write(`error: ${error.message}\n`);
      process.exitCode = 1;
      return;
    }
    let url: string;
    try {
      url = await producer.listen();
    } catch (error) {
      process.stderr.write(`error: cannot listen on ${config.host}:${config.port}: ${(error as Error).message}\n`);
      process.exitCode = 1;
      // With --queue, its Redis connections would keep the process alive.
      await producer.close();
      return;
    }
    if (config.token === undefined && !LOOPBACK.test(config.host)) {
      process.stderr.write(`compose serve: warning: listening on ${config.host} without a token; anyone who can reach it can render\n`);
    }
    const queue = config.queue ? `, queue ${redactedUrl(config.queue)}${config.chunkSize ? ` in chunks of ${config.chunkSize} frames` : ""}` : "";
    process.stdout.write(
      `compose serve: listening on ${url} (${config.maxConcurrentRenders} concurrent renders${queue}, projects ${config.projectsDir}, outputs ${config.outputsDir})\n`,
    );

    // The listeners stay: a second signal must not kill the process halfway through shutting down.
    const signal = await new Promise<NodeJS.Signals>((resolve) => {
      process.on("SIGTERM", resolve);
      process.on("SIGINT", resolve);
    });
    // With the queue's Redis unreachable the count is unknown; shutting down must not depend on it.
    const active = await producer.backend.counts().then(
      ({ activeRenders }) => `${activeRenders} `,
      () => "",
    );
    process.stdout.write(`compose serve: ${signal}: no new requests; finishing ${active}running render(s) within ${config.shutdownGraceMs / 1000} s\n`);
    const killed = await closeWithinGrace(() => producer.close(), config.shutdownGraceMs);
    process.stdout.write(`compose serve: stopped${killed ? ` (the grace was over: ${killed} browser and encoder process(es) killed)` : ""}\n`);
    // Everything is closed; with Redis unreachable, client libraries may still be trying to reconnect.
    process.exit(process.exitCode ?? 0);
  });
}
