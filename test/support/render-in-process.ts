import { validateRenderOptions } from "@compose/core";
import { render, type RenderRequest } from "@compose/renderer";

export interface InProcessRender {
  /** Each warning as `compose render` prints it after "warning: ": "[code] message". */
  warnings: string[];
  /** Why the render failed; undefined when it succeeded. */
  error?: string;
}

/**
 * render() of the library in the test's own process, its options as `compose render`'s flags give
 * them (validateRenderOptions): what a CLI render of the composition makes, without starting a Node
 * process that loads the CLI's modules, about 1.5 s of CPU a render. For tests of what a render
 * makes, not of the command line. Extracted media go to $COMPOSE_CACHE_DIR of this process.
 */
export async function renderInProcess(request: Omit<RenderRequest, "options"> & { options: Record<string, unknown> }): Promise<InProcessRender> {
  const validated = validateRenderOptions(request.options);
  if (!validated.ok) throw new Error(`invalid options ${JSON.stringify(request.options)}: ${validated.problem.problem}`);
  const warnings: string[] = [];
  try {
    await render(
      { ...request, options: validated.options },
      {
        onEvent(event) {
          if (event.type === "warning") warnings.push(`[${event.code}] ${event.message}`);
        },
      },
    );
    return { warnings };
  } catch (error) {
    return { warnings, error: error instanceof Error ? error.message : String(error) };
  }
}
