import { join } from "node:path";
import { validateRenderOptions, type OptionProblem, type RenderOptions } from "@compose/core";
import { narrower, ruleOnConnection, type OperatorNetworkPolicy } from "@compose/renderer";
import type { z } from "zod";
import type { RenderJobSpec } from "../jobs/render-job.js";
import { metadataSchema, webhookRequestSchema, type RequestMetadata, type WebhookRequest } from "../jobs/request-fields.js";
import { outputNameProblem, outputPath } from "../output/output-files.js";
import { compositionDigest } from "../project/composition-digest.js";
import { CompositionPathError, resolveProjectComposition } from "../project/resolve-project-composition.js";
import { HttpError } from "./errors.js";

export const invalid = (message: string, field?: string) => new HttpError(400, "invalid-request", message, field);

function didYouMean(closest: string | undefined): string {
  return closest === undefined ? "" : `; did you mean ${JSON.stringify(closest)}?`;
}

export function describeValue(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** What the server's settings allow requests, and where they read and write. */
export interface RequestContext {
  projectsDir: string;
  outputsDir: string;
  maxWorkersPerRender: number;
  network: OperatorNetworkPolicy;
  /** Whether webhooks can be signed: without a secret, a request naming one is refused. */
  webhooks: boolean;
}

/** A render option's problem in one line, as a request is told it: `workers must be ... (got 9)`. */
export function optionProblemMessage({ field, problem, value, closest }: OptionProblem): string {
  return `${field} ${problem}${value === undefined ? "" : ` (got ${describeValue(value)})`}${didYouMean(closest)}`;
}

/** The body as an object of fields, or a 400. */
export function requestFields(body: unknown, what: string): Record<string, unknown> {
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw invalid(`the request body must be a JSON object with ${what}`);
  return body as Record<string, unknown>;
}

/** `composition`: present and a string, else a 400. */
export function compositionField(composition: unknown): string {
  if (composition === undefined) throw invalid("composition is required: a directory with an index.html or an HTML file", "composition");
  if (typeof composition !== "string") throw invalid(`composition must be a path (got ${describeValue(composition)})`, "composition");
  return composition;
}

/** A request field checked by its schema; the first problem is a 400 naming the field (and the part of it at fault). */
function schemaField<T>(schema: z.ZodType<T>, value: unknown, field: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  if (issue.code === "unrecognized_keys") throw invalid(`${field}.${issue.keys[0]} is not a field of ${field}`, field);
  const at = issue.path.reduce<unknown>((part, key) => (part as Record<PropertyKey, unknown> | undefined)?.[key as PropertyKey], value);
  // A rule about the whole value (its size, its depth) says what it found itself.
  const got = issue.code === "custom" && issue.path.length === 0 ? "" : ` (got ${describeValue(at)})`;
  throw invalid(`${[field, ...issue.path.map(String)].join(".")} ${issue.message}${got}`, field);
}

/** The request's own fields besides the render options: checked, absent ones left out. */
export function requestOnlyFields(
  fields: { metadata?: unknown; webhook?: unknown },
  context: RequestContext,
): { metadata?: RequestMetadata; webhook?: WebhookRequest } {
  const checked: { metadata?: RequestMetadata; webhook?: WebhookRequest } = {};
  if (fields.metadata !== undefined) checked.metadata = schemaField(metadataSchema, fields.metadata, "metadata");
  if (fields.webhook !== undefined) {
    if (!context.webhooks) {
      throw invalid("webhook needs a server that signs its webhooks: start it with --webhook-secret, or set COMPOSE_WEBHOOK_SECRET", "webhook");
    }
    checked.webhook = schemaField(webhookRequestSchema, fields.webhook, "webhook");
  }
  return checked;
}

/** The webhook's host must be one the server's network policy lets it connect to (a 400 otherwise). */
export async function checkWebhookHost(webhook: WebhookRequest | undefined, network: OperatorNetworkPolicy): Promise<void> {
  if (webhook === undefined) return;
  const { reason } = await ruleOnConnection(webhook.url, network);
  if (reason === undefined) return;
  throw invalid(
    `webhook.url ${webhook.url} is not allowed by this server's network policy (${network.mode}, its --network): ${reason}; the operator may allow its host with --allow-host`,
    "webhook",
  );
}

/** Render options as the CLI's flags are checked (unknown fields included), within what this server allows. */
export function renderOptionsField(fields: Record<string, unknown>, context: RequestContext): RenderOptions {
  const result = validateRenderOptions(fields);
  if (!result.ok) throw invalid(optionProblemMessage(result.problem), result.problem.field);
  const { workers } = result.options;
  if (workers !== "auto" && workers > context.maxWorkersPerRender) {
    throw invalid(`workers ${workers} is over this server's limit of ${context.maxWorkersPerRender} per render (its --max-workers-per-render)`, "workers");
  }
  const { network, allowHosts } = result.options;
  if (network !== undefined && narrower(network, context.network.mode) !== network) {
    throw invalid(`network ${network} is wider than this server allows (${context.network.mode}, its --network)`, "network");
  }
  if (allowHosts?.length && !context.network.acceptRequestHosts) {
    throw invalid("allowHosts is not accepted by this server (it was started without --accept-request-hosts)", "allowHosts");
  }
  if (result.options.docker) {
    throw invalid(
      "docker is not a server option: the server renders with its own browser and ffmpeg; run the server inside the container image for pinned output",
      "docker",
    );
  }
  return result.options;
}

/**
 * The composition's entry file inside the projects directory, with its digest (so that a request
 * resumed after a restart renders only what it was given), or a 400 saying why not.
 */
export async function compositionEntry(context: RequestContext, composition: string): Promise<Pick<RenderJobSpec, "file" | "compositionDigest">> {
  let file: string;
  try {
    file = await resolveProjectComposition(context.projectsDir, composition);
  } catch (error) {
    if (error instanceof CompositionPathError) throw invalid(`composition ${error.message}${didYouMean(error.closest)}`, "composition");
    throw error;
  }
  const digest = await compositionDigest(file);
  return { file, ...(digest && { compositionDigest: digest }) };
}

/**
 * Reads a render request body: `composition`, the request's own fields (`metadata`,
 * `outputName`, `webhook`) and the render options of @compose/core, checked by the same schema
 * as the CLI's flags (unknown fields included), so the two cannot drift.
 */
export async function parseRenderRequest(body: unknown, context: RequestContext, requestId: string): Promise<RenderJobSpec> {
  const { composition, metadata, outputName, webhook, ...rest } = requestFields(body, "a composition and render options");
  const name = compositionField(composition);
  const own = requestOnlyFields({ metadata, webhook }, context);
  const options = renderOptionsField(rest, context);
  const entry = await compositionEntry(context, name);
  let output = outputPath(context.outputsDir, requestId, options.format);
  if (outputName !== undefined) {
    if (typeof outputName !== "string") throw invalid(`outputName must be a file name (got ${describeValue(outputName)})`, "outputName");
    const problem = outputNameProblem(outputName, options.format);
    if (problem !== undefined) throw invalid(`outputName ${outputName} ${problem}`, "outputName");
    output = join(context.outputsDir, outputName);
  }
  await checkWebhookHost(own.webhook, context.network);
  return { composition: name, ...entry, output, options, ...own };
}
