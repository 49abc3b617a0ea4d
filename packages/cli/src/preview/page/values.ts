// The variable values the page edits and what follows from them: the boot config of the
// composition frame and the matching `compose render` command. No DOM here.
import type { CompositionVariable } from "@compose/core";

export type Values = Record<string, unknown>;

/** A sub-composition instance whose composition declares variables, as the server lists it. */
export interface InstanceDeclarations {
  id: string;
  src: string;
  /** The host's own data-variable-values. */
  values: Values;
  variables: CompositionVariable[];
}

/** Whether `value` differs from `base`: the declared default, or an instance host's own value. */
export function isChanged(variable: CompositionVariable, value: unknown, base: unknown = variable.default): boolean {
  if (value === undefined) return false;
  if (variable.type === "color") return String(value).toLowerCase() !== String(base).toLowerCase();
  if (typeof value === "object" || typeof base === "object") return JSON.stringify(value) !== JSON.stringify(base);
  return value !== base;
}

/** What an instance's variable starts from: its host's value, else the declared default. */
export function instanceBase(instance: InstanceDeclarations, variable: CompositionVariable): unknown {
  return Object.hasOwn(instance.values, variable.id) ? instance.values[variable.id] : variable.default;
}

/** The values that differ from the declared defaults, in declaration order: what --variables needs. */
export function changedValues(variables: readonly CompositionVariable[], values: Values): Values {
  const changed: Values = {};
  for (const variable of variables) {
    const value = values[variable.id];
    if (isChanged(variable, value)) changed[variable.id] = value;
  }
  return changed;
}

/** Per instance whose values were edited: its host's values with the edits, as the host's data-variable-values. */
export function changedInstances(instances: readonly InstanceDeclarations[], edited: Record<string, Values>): Record<string, Values> {
  const changed: Record<string, Values> = {};
  for (const instance of instances) {
    const values = edited[instance.id] ?? {};
    const edits = instance.variables.filter((variable) => isChanged(variable, values[variable.id], instanceBase(instance, variable)));
    if (edits.length > 0) changed[instance.id] = { ...instance.values, ...Object.fromEntries(edits.map((variable) => [variable.id, values[variable.id]])) };
  }
  return changed;
}

/** Every instance's values as its host has them. */
export function hostValues(instances: readonly InstanceDeclarations[]): Record<string, Values> {
  return Object.fromEntries(
    instances.map((instance) => [instance.id, Object.fromEntries(instance.variables.map((variable) => [variable.id, instanceBase(instance, variable)]))]),
  );
}

/** Keeps the values of variables that still exist with the same type; others take their default. */
export function adoptDeclarations(variables: readonly CompositionVariable[], previous: readonly CompositionVariable[] | undefined, values: Values): Values {
  const old = new Map((previous ?? []).map((variable) => [variable.id, variable]));
  const adopted: Values = {};
  for (const variable of variables) {
    const value = values[variable.id];
    const keep =
      old.get(variable.id)?.type === variable.type &&
      value !== undefined &&
      (variable.type !== "enum" || variable.options.some((option) => option.value === value));
    adopted[variable.id] = keep ? value : variable.default;
  }
  return adopted;
}

export interface BootConfig {
  variables: Values;
  instances?: Record<string, Values>;
}

/** The runtime's boot config for these values: what the composition frame's URL carries. */
export function bootConfig(variables: Values, instances: Record<string, Values>): BootConfig {
  return Object.keys(instances).length > 0 ? { variables, instances } : { variables };
}

/**
 * What going from the `loaded` boot config to `next` changes when only instance values differ:
 * each such instance with its values now (its host's own once no longer edited). Undefined when
 * the top-level values differ, which the whole page must be loaded again for.
 */
export function instanceChanges(loaded: BootConfig, next: BootConfig, instances: readonly InstanceDeclarations[]): Record<string, Values> | undefined {
  if (JSON.stringify(loaded.variables) !== JSON.stringify(next.variables)) return undefined;
  const changes: Record<string, Values> = {};
  for (const instance of instances) {
    const before = loaded.instances?.[instance.id];
    const after = next.instances?.[instance.id];
    if (JSON.stringify(before) !== JSON.stringify(after)) changes[instance.id] = after ?? instance.values;
  }
  return changes;
}

export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** `compose render …` with the fps and values that differ from the defaults. */
export function renderCommand(base: string, fps: number, defaultFps: number, changed: Values): string {
  let command = base;
  if (fps !== defaultFps) command += ` --fps ${fps}`;
  if (Object.keys(changed).length > 0) command += ` --variables ${shellQuote(JSON.stringify(changed))}`;
  return command;
}
