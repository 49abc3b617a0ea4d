import { Ajv2020 } from "ajv/dist/2020.js";
import ajvFormats from "ajv-formats";
import { openApiDocument } from "../../src/openapi/openapi-document.js";

type Operations = Record<string, Record<string, { responses: Record<string, unknown> }>>;

/** The status codes GET /openapi.json promises for one operation, e.g. ("delete", "/render/{id}"). */
export function documentedStatuses(method: string, path: string): number[] {
  const paths = (openApiDocument() as { paths: Operations }).paths;
  const operation = paths[path]?.[method.toLowerCase()];
  if (!operation) throw new Error(`${method} ${path} is not in the OpenAPI document`);
  return Object.keys(operation.responses).map(Number);
}

type Schemas = Record<string, { properties?: { type?: { const?: string } } }>;

const document = openApiDocument() as { components: { schemas: Schemas } };
// The document's schemas refer to each other as #/components/schemas/<name>: the validator
// knows the whole document by that base, so each resolves where a client would find it.
// ajv-formats is CommonJS: its plugin is the module's `default` under NodeNext.
const validator = ajvFormats.default(new Ajv2020({ strict: false, allErrors: true }));
validator.addSchema(document, "openapi");

/** What the document's schema `name` finds wrong with `value`, one line per problem ([] when none). */
export function schemaProblems(name: string, value: unknown): string[] {
  if (!(name in document.components.schemas)) return [`no schema ${name}`];
  const validate = validator.getSchema(`openapi#/components/schemas/${name}`)!;
  if (validate(value)) return [];
  return (validate.errors ?? []).map((error) => `${error.instancePath || "/"} ${error.message}${error.params ? ` ${JSON.stringify(error.params)}` : ""}`);
}

/** What GET /openapi.json finds wrong with a stream event: checked against the schema of its `type` (an unknown type has none). */
export function eventProblems(event: { type: string } & Record<string, unknown>): string[] {
  const name = Object.keys(document.components.schemas).find(
    (candidate) => document.components.schemas[candidate]!.properties?.type?.const === event.type && candidate.endsWith("Event"),
  );
  return name ? schemaProblems(name, event) : [`no schema for an event of type ${event.type}`];
}
