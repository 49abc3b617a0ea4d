import { openApiDocument } from "../../src/openapi/openapi-document.js";

type Operations = Record<string, Record<string, { responses: Record<string, unknown> }>>;

/** The status codes GET /openapi.json promises for one operation, e.g. ("delete", "/render/{id}"). */
export function documentedStatuses(method: string, path: string): number[] {
  const paths = (openApiDocument() as { paths: Operations }).paths;
  const operation = paths[path]?.[method.toLowerCase()];
  if (!operation) throw new Error(`${method} ${path} is not in the OpenAPI document`);
  return Object.keys(operation.responses).map(Number);
}
