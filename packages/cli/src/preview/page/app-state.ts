// What the page knows and has asked for, in the one store its panels share, and what follows
// from it. What the composition shown does (its frame, time, media, sound) is the player's
// (player.ts).
import type { TimelineEntry } from "@compose/runtime";
import { DEFAULT_FPS } from "@compose/player/core";
import type { PreviewLint, PreviewState } from "../preview-state.js";
import type { AnimationSegment } from "./animations.js";
import { createStore } from "./store.js";
import { adoptDeclarations, bootConfig, changedInstances, changedValues, hostValues, renderCommand, type BootConfig, type Values } from "./values.js";

export interface AppState {
  /** The composition this tab shows, kept in its URL (`?composition=scenes/intro.html`); "" for the one compose preview was given. */
  composition: string;
  /** The server's view of the project and of that composition (see project-state.ts); undefined until read. */
  project: PreviewState | undefined;
  /** The lint findings of the composition shown, asked for apart from the project. */
  lint: PreviewLint | undefined;
  /** Variable id -> current widget value. */
  values: Values;
  /** Instance id (its host's data-composition-id) -> variable id -> current widget value. */
  instanceValues: Record<string, Values>;
  /** The frame rate chosen: what the player plays at and the render command names. */
  fps: number;
  /** Whether edited values wait to be applied to the frame. */
  applying: boolean;
  /** Project files saved since the page shown was loaded (paths relative to the project). */
  savedFiles: readonly string[];
  /** The status line of the header. */
  status: { text: string; error: boolean };
  /** The timed elements and animations of the page shown, as its runtime describes them. */
  timeline: { entries: readonly TimelineEntry[]; animations: readonly AnimationSegment[] };
}

export const app = createStore<AppState>({
  composition: "",
  project: undefined,
  lint: undefined,
  values: {},
  instanceValues: {},
  fps: DEFAULT_FPS,
  applying: false,
  savedFiles: [],
  status: { text: "", error: false },
  timeline: { entries: [], animations: [] },
});

/** Shows `text` in the status line, as an error or not. */
export function setStatus(text: string, error = false): void {
  app.update({ status: { text, error } });
}

/** The project as the server read it again: values kept for the variables that stay, instances' values from their hosts when the instances changed. */
export function withProject(state: AppState, project: PreviewState): Partial<AppState> {
  const previous = state.project;
  const patch: Partial<AppState> = { project };
  if (JSON.stringify(previous?.variables) !== JSON.stringify(project.variables))
    patch.values = adoptDeclarations(project.variables, previous?.variables, state.values);
  if (JSON.stringify(previous?.instances) !== JSON.stringify(project.instances)) patch.instanceValues = hostValues(project.instances);
  return patch;
}

/** Every value as declared, every instance's as its host has it. */
export function defaultValues(state: AppState): Partial<AppState> {
  return {
    values: Object.fromEntries((state.project?.variables ?? []).map((variable) => [variable.id, variable.default])),
    instanceValues: hostValues(state.project?.instances ?? []),
  };
}

/** The values that differ from the declared defaults: what `--variables` and the boot config carry. */
export function changedPageValues(state: AppState): Values {
  return changedValues(state.project?.variables ?? [], state.values);
}

/** Per instance whose values were edited: its host's values with the edits. */
export function changedPageInstances(state: AppState): Record<string, Values> {
  return changedInstances(state.project?.instances ?? [], state.instanceValues);
}

/** The runtime's boot config of the composition frame for the values chosen. */
export function pageBootConfig(state: AppState): BootConfig {
  return bootConfig(changedPageValues(state), changedPageInstances(state));
}

/** `compose render …` with the fps and values chosen; "" until the project is read. */
export function pageRenderCommand(state: AppState): string {
  return state.project ? renderCommand(state.project.renderCommand, state.fps, DEFAULT_FPS, changedPageValues(state)) : "";
}

/** The composition's own size; 640x360 when its file does not say. */
export function compositionSize(state: AppState): { width: number; height: number } {
  const { width, height } = state.project?.composition ?? {};
  return { width: width !== undefined && width > 0 ? width : 640, height: height !== undefined && height > 0 ? height : 360 };
}
