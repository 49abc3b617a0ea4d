/**
 * A tool's inputs, derived from the command it runs: its path argument, and each of its flags
 * under the name the render options' table gives it (the JSON name the server takes too, such as
 * `allowHosts` for --allow-host), else commander's (`framesDir` for --frames-dir). A render
 * option's JSON Schema is its zod schema's from core, so a tool offers what the command offers,
 * typed as the table types it, and a flag added to the command is an input at once.
 */
import type { Command, Option } from "commander";
import { closestMatch, jsonSchema, type FlagDeclaration, type RenderOptionDeclaration } from "@compose/core";
import { FLAGS, type FlagField } from "../render/cli-flags.js";
import { flagName } from "../render/flag-options.js";
import { optionsProblemLine } from "../render/render-flags.js";
import { UsageError } from "../usage-error.js";

/** The input every tool has: the path, resolved as the command resolves its path argument. */
export const PATH_INPUT = "path";

type Kind = "switch" | "list" | "value" | "variables";

interface Input {
  /** The input's name in a tool call. */
  name: string;
  option: Option;
  kind: Kind;
  schema: Record<string, unknown>;
}

export interface ToolInputs {
  tool: string;
  inputs: Input[];
  /** The command's flags the tool leaves out and why, for its description: `--json: ...; --docker, --image: ...`. */
  leftOut: string;
  /** The JSON Schema of the call's arguments, as tools/list gives it. */
  schema: { type: "object"; properties: Record<string, object>; additionalProperties: false };
}

/** Each flag of FLAGS (the render options among them) by its long flag: `--allow-host` -> allowHosts. */
const DECLARED = new Map((Object.keys(FLAGS) as FlagField[]).map((field) => [flagName(field), field]));

function declarationOf(option: Option): { field: FlagField; declaration: FlagDeclaration } | undefined {
  const field = option.long === undefined ? undefined : DECLARED.get(option.long);
  return field === undefined ? undefined : { field, declaration: FLAGS[field] };
}

function kindOf(option: Option, declaration: FlagDeclaration | undefined): Kind {
  if (option.isBoolean()) return "switch";
  if (declaration?.read === "list") return "list";
  if (declaration?.read === "variables") return "variables";
  return "value";
}

/** A flag's JSON Schema: a render option's from its zod schema; the CLI's own flags take text (or a number, written as text). */
function schemaOf(option: Option, kind: Kind, declaration: FlagDeclaration | undefined): Record<string, unknown> {
  const described = { description: `${option.long}: ${option.description}`, ...(option.defaultValue === undefined ? {} : { default: option.defaultValue }) };
  if (declaration !== undefined && "schema" in declaration) return { ...jsonSchema((declaration as RenderOptionDeclaration).schema), ...described };
  if (kind === "switch") return { type: "boolean", ...described };
  if (kind === "list") return { type: "array", items: { type: "string" }, ...described };
  return { type: ["string", "number"], ...described };
}

/**
 * The inputs of `command` as a tool: its path argument and its flags, but for those named in
 * `omitted` (each with why the tool has no use for it), the hidden ones and the `--no-` forms
 * (the switch's false says it).
 */
export function toolInputs(tool: string, command: Command, omitted: Readonly<Record<string, string>>): ToolInputs {
  const inputs = command.options
    .filter((option) => !option.hidden && !option.negate && !(option.attributeName() in omitted))
    .map((option): Input => {
      const declared = declarationOf(option);
      const kind = kindOf(option, declared?.declaration);
      return { name: declared?.field ?? option.attributeName(), option, kind, schema: schemaOf(option, kind, declared?.declaration) };
    });
  const byReason = new Map<string, string[]>();
  for (const option of command.options) {
    const reason = omitted[option.attributeName()];
    if (reason !== undefined && !option.negate) byReason.set(reason, [...(byReason.get(reason) ?? []), option.long!]);
  }
  const leftOut = [...byReason].map(([reason, flags]) => `${flags.join(", ")}: ${reason}`).join("; ");
  const argument = command.registeredArguments[0]!;
  const path = { type: "string", description: `${argument.description}, relative to the server's working directory`, default: argument.defaultValue };
  return {
    tool,
    inputs,
    leftOut,
    schema: {
      type: "object",
      properties: { [PATH_INPUT]: path, ...Object.fromEntries(inputs.map((input) => [input.name, input.schema])) },
      additionalProperties: false,
    },
  };
}

/** A refusal in the CLI's words: the flag, what it takes, and what was given. */
function refuse(flag: string, problem: string, value: unknown): never {
  throw new UsageError(optionsProblemLine({ field: flag, problem, value }, (name) => name));
}

/** An argument as the command's flag would carry it: its text as typed, a switch's true or false, a list's items. */
function flagValueOf(input: Input, value: unknown): string | string[] | boolean {
  const flag = input.option.long ?? input.name;
  switch (input.kind) {
    case "switch":
      if (typeof value !== "boolean") refuse(flag, "must be true or false", value);
      return value;
    case "list":
      if (!Array.isArray(value) || !value.every((item) => typeof item === "string")) refuse(flag, "must be a list of strings", value);
      return value;
    case "variables":
      // The object the JSON Schema asks for, as its text; text is read as the flag reads it.
      if (typeof value === "object" && value !== null && !Array.isArray(value)) return JSON.stringify(value);
      if (typeof value !== "string") refuse(flag, "must be a JSON object of variable values", value);
      return value;
    case "value":
      if (typeof value === "number" && Number.isFinite(value)) return String(value);
      if (typeof value !== "string") refuse(flag, "must be text or a number", value);
      return value;
  }
}

/**
 * A tool call's arguments as `compose <command> PATH --flags` would give them to the command's
 * code: the path, and the flags by commander's names for them, with commander's defaults and its
 * refusal of a value outside an option's choices. Whatever is wrong is one UsageError line.
 */
export function commandArguments(
  tool: ToolInputs,
  args: Record<string, unknown> | undefined,
): { path: string; flags: Record<string, string | string[] | boolean> } {
  const byName = new Map(tool.inputs.map((input) => [input.name, input]));
  const given = args ?? {};
  for (const name of Object.keys(given)) {
    if (name === PATH_INPUT || byName.has(name)) continue;
    const closest = closestMatch(name, [PATH_INPUT, ...byName.keys()]);
    throw new UsageError(`${name} is not an input of ${tool.tool}${closest === undefined ? "" : `; did you mean ${JSON.stringify(closest)}?`}`);
  }
  const path = given[PATH_INPUT] ?? ".";
  if (typeof path !== "string") refuse(PATH_INPUT, "must be a path: a composition directory (its index.html) or an HTML file", path);
  const flags: Record<string, string | string[] | boolean> = {};
  for (const input of tool.inputs) {
    const value = given[input.name] === undefined ? input.option.defaultValue : flagValueOf(input, given[input.name]);
    if (value === undefined) continue;
    const choices = input.option.argChoices;
    if (choices !== undefined && typeof value === "string" && !choices.includes(value)) {
      // Commander's own words for the flag, as the CLI prints them.
      throw new UsageError(`option '${input.option.flags}' argument '${value}' is invalid. Allowed choices are ${choices.join(", ")}.`);
    }
    flags[input.option.attributeName()] = value;
  }
  return { path, flags };
}
