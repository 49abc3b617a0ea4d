import { dirname, relative } from "node:path";
import {
  extractCompositionMetadata,
  FORMAT_TABLE,
  FRAME_RATES,
  isFolderOutput,
  lintProject,
  OUTPUT_FORMATS,
  QUALITY_NAMES,
  validateRenderOptions,
} from "@compose/core";
import { countSeverities } from "../terminal/lint-report.js";
import { readCompositionFile } from "../project/read-composition-file.js";
import { createSubCompositionResolver, fontFamilyCatalog, projectTextLoader } from "@compose/renderer/project";
import type { PreviewLint, PreviewState } from "./preview-state.js";

/** The entry's part of the state; the server adds what concerns the whole project. */
export type EntryState = Omit<PreviewState, "compositions" | "pathIsFolder">;

/** A path as a shell word: left alone when it is plain, else single-quoted. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

function renderChoices(): PreviewState["renderChoices"] {
  const defaults = validateRenderOptions({});
  if (!defaults.ok) throw new Error(`the render options' defaults do not validate: ${defaults.problem.field} ${defaults.problem.problem}`);
  const { format, quality, fps, scale, workers } = defaults.options;
  const formats = OUTPUT_FORMATS.filter((choice) => !isFolderOutput(choice));
  return {
    formats,
    imageFormats: formats.filter((choice) => FORMAT_TABLE[choice].contentType.startsWith("image/")),
    qualities: [...QUALITY_NAMES],
    fps: [...FRAME_RATES],
    defaults: { format, quality, fps, scale, workers },
  };
}

/** Reads the composition's metadata: what the page needs before its first frame. */
export async function readProjectState(options: { entryFile: string; entryUrl: string; pathArg: string; cwd: string; version: number }): Promise<EntryState> {
  const entryFile = relative(options.cwd, options.entryFile) || options.entryFile;
  const pathArg = options.pathArg.replace(/(.)\/+$/, "$1");
  const state: EntryState = {
    version: options.version,
    entry: { url: options.entryUrl, file: entryFile },
    renderCommand: `compose render ${shellWord(pathArg)}`,
    renderChoices: renderChoices(),
    composition: {},
    variables: [],
    instances: [],
  };
  let html: string;
  try {
    html = await readCompositionFile(options.entryFile);
  } catch (error) {
    state.error = (error as Error).message;
    return state;
  }
  const metadata = extractCompositionMetadata(html);
  state.composition = { id: metadata.id, width: metadata.width, height: metadata.height, duration: metadata.duration };
  state.variables = metadata.variables;
  const resolvePath = createSubCompositionResolver(dirname(options.entryFile));
  const readEmbedded = projectTextLoader(dirname(options.entryFile), options.cwd);
  for (const instance of metadata.instances) {
    if (instance.id === undefined || instance.src === undefined) continue;
    const text = await readEmbedded(resolvePath(options.entryFile, instance.src)).catch(() => undefined);
    const variables = text === undefined ? [] : extractCompositionMetadata(text).variables;
    if (variables.length > 0) state.instances.push({ id: instance.id, src: instance.src, values: instance.values, variables });
  }

  return state;
}

/** Lints the project of `entryFile` as `compose lint` does; kept apart from the state, so the first frame does not wait for it. */
export async function lintEntry(options: { entryFile: string; cwd: string; version: number }): Promise<PreviewLint> {
  const entryFile = relative(options.cwd, options.entryFile) || options.entryFile;
  const readEmbedded = projectTextLoader(dirname(options.entryFile), options.cwd);
  // Paths relative to the working directory, so findings read as `compose lint` prints them.
  const files: string[] = [];
  const load = async (file: string): Promise<string | undefined> => {
    const text = await readEmbedded(file);
    if (text !== undefined) files.push(file);
    return text;
  };
  try {
    const fonts = await fontFamilyCatalog(dirname(options.entryFile), dirname(entryFile));
    const findings = await lintProject(entryFile, load, createSubCompositionResolver(dirname(entryFile)), {
      knownFontFamily: fonts.known,
      fontPackageProblems: fonts.problems,
    });
    return { version: options.version, ...countSeverities(findings), files, findings };
  } catch (error) {
    return { version: options.version, errors: 0, warnings: 0, files, findings: [], error: (error as Error).message };
  }
}
