import { Option, type Command } from "commander";
import type { FlagDeclaration, FlagScope } from "@compose/core";
import { FLAGS, type FlagField } from "./cli-flags.js";

type Flags = typeof FLAGS;
/** `video-bitrate` of `--video-bitrate <rate>`, `format` of `-f, --format <format>`. */
type LongName<Flag> = Flag extends `${string}--${infer Rest}` ? (Rest extends `${infer Name} ${string}` ? Name : Rest) : never;
type CamelCase<Name> = Name extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<CamelCase<Tail>>}` : Name;
type FlagValue<Declaration> = Declaration extends { flag: `${string}<${string}` } ? (Declaration extends { read: "list" } ? string[] : string) : boolean;

/**
 * What commander hands over for the declared flags of `scope`: text, lists and switches, as typed,
 * under the names commander gives them (its camel case of the long flag), so no command writes
 * its flags out as an interface of its own.
 */
export type FlagsOf<Scope extends FlagScope> = {
  [Field in FlagField as Scope extends Flags[Field]["scopes"][number] ? CamelCase<LongName<Flags[Field]["flag"]>> : never]?: FlagValue<Flags[Field]>;
};

/** The declared fields that `scope` reads, in --help order. */
export function fieldsOf(scope: FlagScope): FlagField[] {
  return (Object.keys(FLAGS) as FlagField[]).filter((field) => (FLAGS[field].scopes as readonly FlagScope[]).includes(scope));
}

function declarationOf(field: FlagField): FlagDeclaration {
  return FLAGS[field];
}

/** A field's flag as the user types it: `allowHosts` -> `--allow-host`, so errors name what was typed. */
export function flagName(field: FlagField): string {
  return new Option(declarationOf(field).flag).long!;
}

/** A field's value among what commander parsed: by commander's name for it (`allowHost` for `allowHosts`). */
export function flagValue(flags: object, field: FlagField): string | string[] | boolean | undefined {
  return (flags as Record<string, string | string[] | boolean | undefined>)[new Option(declarationOf(field).flag).attributeName()];
}

/** A declared default as help shows it: switches are on or off. */
export function describeDefault(value: string | number | boolean): string {
  if (typeof value === "boolean") return value ? "on" : "off";
  return String(value);
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

/**
 * The commander options of one field: its flag, and its `--no-` form when declared. The help ends
 * in "(default: ...)" from `defaultText`, which a command may give where its default differs.
 */
export function flagOptions(field: FlagField, defaultText?: string): Option[] {
  const declaration = declarationOf(field);
  const shownDefault = defaultText ?? declaration.defaultText ?? (declaration.default === undefined ? undefined : describeDefault(declaration.default));
  const option = new Option(declaration.flag, shownDefault === undefined ? declaration.help : `${declaration.help} (default: ${shownDefault})`);
  if (declaration.read === "list") option.argParser(collect);
  if (declaration.hidden) option.hideHelp();
  if (declaration.negatedHelp === undefined) return [option];
  return [option, new Option(`--no-${option.long!.slice(2)}`, declaration.negatedHelp)];
}

/** Adds every declared flag of `scope` to `command`; `defaultTexts` names defaults that are the command's own. */
export function addDeclaredFlags(command: Command, scope: FlagScope, defaultTexts: Partial<Record<FlagField, string>> = {}): Command {
  for (const field of fieldsOf(scope)) {
    for (const option of flagOptions(field, defaultTexts[field])) command.addOption(option);
  }
  return command;
}
