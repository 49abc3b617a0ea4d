import type { Command } from "commander";
import { statSync } from "node:fs";
import { join, resolve } from "node:path";
import { renderSettingsFromEnvironment } from "../render/render-flags.js";
import { UsageError } from "../usage-error.js";

const DEFAULT_PORT = 4400;
/** Without --port, the next ports are tried when the default is taken. */
const PORT_ATTEMPTS = 20;
const HOST = "127.0.0.1";

function parsePort(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text) || Number(text) > 65535) throw new UsageError(`--port must be an integer from 0 to 65535; 0 picks a free port (got ${text})`);
  return Number(text);
}

/** As compose render finds the entry; a folder without index.html starts at its first composition (the page lists them all). */
async function previewEntry(pathArg: string): Promise<{ file: string; pathIsFolder: boolean }> {
  const [{ resolveCompositionEntry }, { listCompositions }] = await Promise.all([
    import("../project/resolve-composition-entry.js"),
    import("../project/list-compositions.js"),
  ]);
  try {
    return { file: (await resolveCompositionEntry(pathArg)).file, pathIsFolder: false };
  } catch (error) {
    const folder = resolve(pathArg);
    if (!(error instanceof UsageError) || !statSync(folder, { throwIfNoEntry: false })?.isDirectory()) throw error;
    const [first] = await listCompositions(folder);
    if (first === undefined) throw error;
    return { file: join(folder, first), pathIsFolder: true };
  }
}

export function registerPreview(program: Command): void {
  program
    .command("preview")
    .description(
      "Preview a composition in the browser: a timeline, scrubbing and playing frame by frame, its variables, lint findings, and rendering from the page.",
    )
    .argument("[path]", "composition directory (its index.html) or HTML file", ".")
    .option("--port <port>", `port on 127.0.0.1; 0 picks a free one (default: ${DEFAULT_PORT}, or the next free one)`)
    .action(async (pathArg: string, flags: { port?: string }) => {
      const requestedPort = parsePort(flags.port);
      const { file: entryFile, pathIsFolder } = await previewEntry(pathArg);
      // Loaded here: declaring the command (compose --help declares them all) must not load the browser driver and the HTTP server behind them.
      const renderSettings = renderSettingsFromEnvironment(process.env);
      const { runtimeBundle, planMedia, framesDirectory } = await import("@compose/renderer");
      const { startPreviewServer } = await import("../preview/server.js");
      const { compositionName } = await import("../project/resolve-composition-entry.js");
      const { renderExecutor } = await import("@compose/producer/render-executor");
      const attempts = requestedPort === undefined ? PORT_ATTEMPTS : 1;
      let server;
      for (let i = 0; i < attempts && !server; i++) {
        const port = (requestedPort ?? DEFAULT_PORT) + i;
        try {
          server = await startPreviewServer({
            entryFile,
            pathArg,
            pathIsFolder,
            cwd: process.cwd(),
            host: HOST,
            port,
            runtimeBundle,
            executeRender: renderExecutor(renderSettings),
            planMedia,
            framesDir: framesDirectory(),
            nameOf: compositionName,
          });
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          if (code !== "EADDRINUSE" || i === attempts - 1) {
            const reason = code === "EADDRINUSE" ? "it is in use" : (error as Error).message;
            process.stderr.write(`error: cannot listen on ${HOST}:${port}: ${reason}; choose another with --port (0 picks a free one)\n`);
            process.exitCode = 1;
            return;
          }
        }
      }
      if (!server) return;
      process.stdout.write(`compose preview: ${compositionName(entryFile)} at ${server.url} (Ctrl-C to stop)\n`);
      const signal = await new Promise<NodeJS.Signals>((resolve) => {
        process.once("SIGINT", resolve);
        process.once("SIGTERM", resolve);
      });
      await server.close();
      process.stdout.write(`compose preview: stopped (${signal})\n`);
    });
}
