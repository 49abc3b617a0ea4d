import { Command } from "commander";
import type { RenderEvent } from "@compose/renderer";
import { addDeclaredFlags } from "../render/flag-options.js";
import { renderFailureExit, untilInterrupted } from "../render/interruptible.js";
import type { RenderFlags } from "../render/render-flags.js";

export function registerRender(program: Command): void {
  const command = program
    .command("render")
    .description("Render a composition to a video file or a PNG sequence.")
    .argument("[path]", "composition directory (its index.html) or HTML file", ".");
  // Without --network a render may load anything; serve and worker narrow it.
  addDeclaredFlags(command, "render", { network: "all" }).action(async (pathArg: string, flags: RenderFlags) => {
    const { prepareRender, singleRenderRequest } = await import("../render/prepare-render.js");
    const prepared = await prepareRender(pathArg, flags);
    if (flags.batch !== undefined) {
      const { runBatchCommand } = await import("../batch/batch-command.js");
      process.exitCode = await runBatchCommand({ flags: { ...flags, batch: flags.batch }, ...prepared });
      return;
    }
    const request = singleRenderRequest(prepared, flags.output);
    if (prepared.options.docker) {
      // The same render, by the CLI inside the compose-render image; this process starts no browser.
      const { renderInContainer } = await import("../docker/docker-render.js");
      process.exitCode = await renderInContainer({ flags, compositionFile: request.composition, output: request.output });
      return;
    }
    // Loaded only for a render in this process: a refused flag, --batch and --docker do without the browser driver.
    const [{ render, RenderError }, { writeJsonEvent }, { createRenderReporter }] = await Promise.all([
      import("@compose/renderer"),
      import("../render/json-events.js"),
      import("../render/render-reporter.js"),
    ]);

    const report = flags.json
      ? (event: RenderEvent) => writeJsonEvent(process.stdout, event)
      : createRenderReporter({ quiet: flags.quiet ?? false, interactive: Boolean(process.stdout.isTTY), out: process.stdout, err: process.stderr });
    try {
      await untilInterrupted((signal) => render(request, { onEvent: report, signal }));
    } catch (error) {
      if (!(error instanceof RenderError)) throw error;
      // With --json the failed event said it on stdout; stderr still tells a person watching.
      process.exitCode = renderFailureExit(error);
    }
  });
}
