import { openApiDocument } from "../../src/openapi/openapi-document.js";

type Operations = Record<string, Record<string, { responses: Record<string, unknown> }>>;

/** The status codes GET /openapi.json promises for one operation, e.g. ("delete", "/render/{id}"). */
export function documentedStatuses(method: string, path: string): number[] {
  const paths = (openApiDocument() as { paths: Operations }).paths;
  const operation = paths[path]?.[method.toLowerCase()];
  if (!operation) throw new Error(`${method} ${path} is not in the OpenAPI document`);
  return Object.keys(operation.responses).map(Number);
}

type EventSchema = { required: string[]; properties: { type: { const: string } } };

/** The fields GET /openapi.json requires of a stream event of this event's type that it lacks (an unknown type lacks all). */
export function missingEventFields(event: { type: string } & Record<string, unknown>): string[] {
  const schemas = (openApiDocument() as { components: { schemas: Record<string, EventSchema> } }).components.schemas;
  const schema = Object.values(schemas).find((candidate) => candidate.properties?.type?.const === event.type);
  if (!schema) return [`a schema for ${event.type}`];
  return schema.required.filter((field) => !(field in event));
}
