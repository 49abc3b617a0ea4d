import { validateRenderOptions } from "@compose/core";
import { narrower, type OperatorNetworkPolicy } from "@compose/renderer";
import type { RenderJobSpec } from "../jobs/render-job.js";
import { outputPath } from "../output/output-files.js";
import { CompositionPathError, resolveProjectComposition } from "../project/resolve-project-composition.js";
import { HttpError } from "./errors.js";

const invalid = (message: string, field?: string) => new HttpError(400, "invalid-request", message, field);

function didYouMean(closest: string | undefined): string {
  return closest === undefined ? "" : `; did you mean ${JSON.stringify(closest)}?`;
}

function describe(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

/**
 * Reads a render request body: `composition` plus the render options of @compose/core, checked
 * by the same schema as the CLI's flags (unknown fields included), so the two cannot drift.
 */
export async function parseRenderRequest(
  body: unknown,
  dirs: { projectsDir: string; outputsDir: string; maxWorkersPerRender: number; network: OperatorNetworkPolicy },
  requestId: string,
): Promise<RenderJobSpec> {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw invalid("the request body must be a JSON object with a composition and render options");
  }
  const { composition, ...rest } = body as Record<string, unknown>;
  if (composition === undefined) throw invalid("composition is required: a directory with an index.html or an HTML file", "composition");
  if (typeof composition !== "string") throw invalid(`composition must be a path (got ${describe(composition)})`, "composition");

  const result = validateRenderOptions(rest);
  if (!result.ok) {
    const { field, problem, value, closest } = result.problem;
    throw invalid(`${field} ${problem}${value === undefined ? "" : ` (got ${describe(value)})`}${didYouMean(closest)}`, field);
  }
  const { workers } = result.options;
  if (workers !== "auto" && workers > dirs.maxWorkersPerRender) {
    throw invalid(`workers ${workers} is over this server's limit of ${dirs.maxWorkersPerRender} per render (its --max-workers-per-render)`, "workers");
  }
  const { network, allowHosts } = result.options;
  if (network !== undefined && narrower(network, dirs.network.mode) !== network) {
    throw invalid(`network ${network} is wider than this server allows (${dirs.network.mode}, its --network)`, "network");
  }
  if (allowHosts?.length && !dirs.network.acceptRequestHosts) {
    throw invalid("allowHosts is not accepted by this server (it was started without --accept-request-hosts)", "allowHosts");
  }
  if (result.options.docker) {
    throw invalid("docker is not a server option: the server renders with its own browser and ffmpeg; run the server inside the container image for pinned output", "docker");
  }
  let file: string;
  try {
    file = await resolveProjectComposition(dirs.projectsDir, composition);
  } catch (error) {
    if (error instanceof CompositionPathError) throw invalid(`composition ${error.message}${didYouMean(error.closest)}`, "composition");
    throw error;
  }
  return { composition, file, output: outputPath(dirs.outputsDir, requestId, result.options.format), options: result.options };
}
