// What the page knows and has asked for, shared by its panels.
import type { ComposeApi, LoadFailure, MediaDescription } from "@compose/runtime";
import type { PreviewLint, PreviewState } from "../preview-state.js";
import type { Values } from "./values.js";

export const RENDER_DEFAULT_FPS = 30;

export interface App {
  /** The server's view of the project (see project-state.ts). */
  state: PreviewState | undefined;
  /** The lint findings of the composition shown, asked for apart from the state. */
  lint: PreviewLint | undefined;
  fps: number;
  /** Duration in seconds, from the runtime once the frame is ready (else the static metadata). */
  duration: number | undefined;
  totalFrames: number;
  /** The frame asked for, and the frame the current iframe shows (undefined: not seeked yet). */
  target: number;
  shown: number | undefined;
  /** Variable id -> current widget value. */
  values: Values;
  /** Instance id (its host's data-composition-id) -> variable id -> current widget value. */
  instanceValues: Record<string, Values>;
  /** The boot config (JSON) the current iframe was loaded with. */
  loadedConfig: string | undefined;
  /** The composition page (its URL and project version, without the config) the current iframe was loaded from. */
  loadedPage: string | undefined;
  /** Project files saved since the current iframe was loaded (paths relative to the project). */
  savedFiles: Set<string>;
  /** The current iframe's window.__compose, once ready. */
  api: ComposeApi | undefined;
  wantReload: boolean;
  busy: boolean;
  applyTimer: ReturnType<typeof setTimeout> | undefined;
  playing: boolean;
  idleWaiters: Array<() => void>;
  /** Errors of the current frame: ready() failures and the runtime's collected page errors. */
  frameErrors: string[];
  /** The composition page's runtime, even when it did not become ready: its load failures and errors. */
  pageApi: ComposeApi | undefined;
  /** What failed to load in the page shown, as its runtime collected it. */
  loadFailures: readonly LoadFailure[];
  /** Whether the composition builds its state frame by frame, learnt from any of its pages. */
  needsHistory: boolean;
  /** The composition's timed media (describeMedia), once planned: what plays while playing. */
  media: MediaDescription[];
}

export const app: App = {
  state: undefined,
  lint: undefined,
  fps: RENDER_DEFAULT_FPS,
  duration: undefined,
  totalFrames: 1,
  target: 0,
  shown: undefined,
  values: {},
  instanceValues: {},
  loadedConfig: undefined,
  loadedPage: undefined,
  savedFiles: new Set(),
  api: undefined,
  wantReload: false,
  busy: false,
  applyTimer: undefined,
  playing: false,
  idleWaiters: [],
  frameErrors: [],
  pageApi: undefined,
  loadFailures: [],
  needsHistory: false,
  media: [],
};

export function frameTime(frame: number): number {
  return frame / app.fps;
}
