// What the page knows and has asked for, shared by its panels. What the composition shown does
// (its frame, time, media, sound) is the player's (viewer.ts).
import type { LoadFailure } from "@compose/runtime";
import type { PreviewLint, PreviewState } from "../preview-state.js";
import type { Values } from "./values.js";

export interface App {
  /** The server's view of the project (see project-state.ts). */
  state: PreviewState | undefined;
  /** The lint findings of the composition shown, asked for apart from the state. */
  lint: PreviewLint | undefined;
  /** Variable id -> current widget value. */
  values: Values;
  /** Instance id (its host's data-composition-id) -> variable id -> current widget value. */
  instanceValues: Record<string, Values>;
  /** The composition page (its URL and project version, without the config) the current iframe was loaded from. */
  loadedPage: string | undefined;
  /** Project files saved since the current iframe was loaded (paths relative to the project). */
  savedFiles: Set<string>;
  applyTimer: ReturnType<typeof setTimeout> | undefined;
  /** What failed to load in the page shown, as its runtime collected it. */
  loadFailures: readonly LoadFailure[];
}

export const app: App = {
  state: undefined,
  lint: undefined,
  values: {},
  instanceValues: {},
  loadedPage: undefined,
  savedFiles: new Set(),
  applyTimer: undefined,
  loadFailures: [],
};
