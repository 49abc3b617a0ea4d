import { plural } from "@compose/core/text";
import type { Command } from "commander";
// Only the light config module up front: BullMQ and the renderer load when `worker` runs.
import { DEFAULT_SHUTDOWN_GRACE_SECONDS, redactedUrl } from "@compose/producer/config";
import { DEFAULT_STALL_TIMEOUT_SECONDS, WORKER_CONCURRENCY, workerConfigFromFlags, type WorkerFlags } from "@compose/producer/worker-config";
import { renderSettingsFromEnvironment } from "../render/render-flags.js";
import { addDeclaredFlags } from "../render/flag-options.js";
import { limitsFromFlags, OPERATOR_NETWORK, operatorNetworkFromFlags, type SafetyFlags } from "../render/safety-flags.js";
import { configOrUsageError } from "../config-usage-error.js";

export function registerWorker(program: Command): void {
  const command = program
    .command("worker")
    .description("Render jobs of a compose serve --queue cluster: run it on any machine that shares the projects and outputs directories.")
    .option("--queue <url>", "the Redis the servers queue renders on (redis://HOST:PORT); required")
    .option("--projects <dir>", "this machine's path to the shared projects directory (default: .)")
    .option("--outputs <dir>", "this machine's path to the shared outputs directory (default: renders)")
    .option(
      "--concurrency <n>",
      `render tasks (whole renders or chunks) this worker runs at once, ${WORKER_CONCURRENCY.min}-${WORKER_CONCURRENCY.max} (default: ${WORKER_CONCURRENCY.default})`,
    )
    .option(
      "--stall-timeout <seconds>",
      `a task whose worker stops answering for this long is run again by another worker (default: ${DEFAULT_STALL_TIMEOUT_SECONDS})`,
    )
    .option(
      "--shutdown-grace <seconds>",
      `on SIGTERM, the worker ends within this; running tasks may finish until its last 5 s, then go back to the queue (default: ${DEFAULT_SHUTDOWN_GRACE_SECONDS})`,
    );
  addDeclaredFlags(command, "serve-worker", { network: OPERATOR_NETWORK }).action(async (flags: WorkerFlags & SafetyFlags) => {
    const config = configOrUsageError(() => workerConfigFromFlags(flags, process.cwd()));
    const renderSettings = { ...renderSettingsFromEnvironment(process.env), limits: limitsFromFlags(flags), network: operatorNetworkFromFlags(flags) };
    const { startRenderWorker, QueueConnectionError, closeWithinGrace } = await import("@compose/producer");
    const say = (line: string) => process.stdout.write(`compose worker: ${line}\n`);
    let worker: Awaited<ReturnType<typeof startRenderWorker>>;
    try {
      worker = await startRenderWorker(config, { renderSettings, log: say });
    } catch (error) {
      if (!(error instanceof QueueConnectionError)) throw error;
      process.stderr.write(`error: ${error.message}\n`);
      process.exitCode = 1;
      return;
    }
    say(
      `ready (queue ${redactedUrl(config.queue)}, ${plural(config.concurrency, "task")} at once, projects ${config.projectsDir}, outputs ${config.outputsDir})`,
    );
    // The listeners stay: a second signal must not kill the process halfway through stopping.
    const signal = await new Promise<NodeJS.Signals>((resolve) => {
      process.on("SIGTERM", resolve);
      process.on("SIGINT", resolve);
    });
    say(`${signal}: taking no more work; running tasks may finish within ${config.shutdownGraceMs / 1000} s, then go back to the queue`);
    const killed = await closeWithinGrace(() => worker.close(config.shutdownGraceMs), config.shutdownGraceMs);
    say(`stopped${killed ? ` (the grace was over: ${killed} browser and encoder process(es) killed)` : ""}`);
    // Everything is closed; with Redis unreachable, client libraries may still be trying to reconnect.
    process.exit(process.exitCode ?? 0);
  });
}
