import type { CompositionVariable, LintFinding } from "@compose/core";

/** What GET /__compose/state answers: the project as the page shows it. Read by the server and the page alike. */
export interface PreviewState {
  /** Increases with every change of a project file. */
  version: number;
  entry: {
    /** URL path of the entry HTML on the preview server. */
    url: string;
    /** Path relative to the directory compose preview runs in. */
    file: string;
  };
  /** `compose render <path>`, the start of the command the copy button builds. */
  renderCommand: string;
  /**
   * What the render panel offers, from the options schema (a folder of PNGs is left to the CLI);
   * `imageFormats` are those a finished render is shown in an image rather than a video.
   */
  renderChoices: {
    formats: string[];
    imageFormats: string[];
    qualities: string[];
    fps: number[];
    defaults: { format: string; quality: string; fps: number; scale: number; workers: number | "auto" };
  };
  /** Undefined members: not readable statically (lint says why). */
  composition: { id?: string; width?: number; height?: number; duration?: number };
  /** Valid declarations, in declaration order. */
  variables: CompositionVariable[];
  /** Sub-composition instances whose composition declares variables: their host's values and those declarations. */
  instances: Array<{ id: string; src: string; values: Record<string, unknown>; variables: CompositionVariable[] }>;
  /** Set when the entry cannot be read at all. */
  error?: string;
  /** The project's compositions, paths relative to it with `/`: what the page may pick. */
  compositions: string[];
  /** Whether compose preview was given a folder without index.html. */
  pathIsFolder: boolean;
}

/** What GET /__compose/lint answers: the findings of `compose lint` for the composition shown, at a project version. */
export interface PreviewLint {
  version: number;
  errors: number;
  warnings: number;
  files: string[];
  findings: LintFinding[];
  /** Set when the project could not be linted. */
  error?: string;
}
