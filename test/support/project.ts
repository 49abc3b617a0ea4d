import { copyFile, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root (this file is test/support/project.ts). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

const GSAP_MIN = join(REPO_ROOT, "node_modules/gsap/dist/gsap.min.js");

export interface TempProject {
  /** Absolute path of the project directory. */
  dir: string;
  /** Absolute path of a file or directory inside the project. */
  path(...parts: string[]): string;
  remove(): Promise<void>;
}

export interface ProjectOptions {
  /** Copies gsap.min.js into the project root, for `<script src="gsap.min.js">`. */
  gsap?: boolean;
  /** Prefix of the temporary directory's name. */
  prefix?: string;
}

/** A temporary project directory holding `files` (relative path -> content), under os.tmpdir(). */
export async function createProject(files: Record<string, string | Buffer>, options: ProjectOptions = {}): Promise<TempProject> {
  const dir = await mkdtemp(join(tmpdir(), options.prefix ?? "compose-test-"));
  for (const [name, content] of Object.entries(files)) {
    const file = join(dir, name);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, content);
  }
  if (options.gsap) await copyFile(GSAP_MIN, join(dir, "gsap.min.js"));
  return {
    dir,
    path: (...parts) => join(dir, ...parts),
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

export interface CompositionSpec {
  id?: string;
  width?: number;
  height?: number;
  /** Seconds; omitted when undefined. */
  duration?: number | undefined;
  /** CSS for the document; `*` margins are reset and the stage is positioned already. */
  css?: string;
  /**
   * Background of the composition element itself; none (transparent) when undefined. The
   * transparent formats warn about it (opaque-background): use `backdrop` for an opaque frame.
   */
  background?: string | undefined;
  /**
   * An opaque full-frame layer drawn as the composition's first child: an opaque frame without
   * a background on html, body or the composition element.
   */
  backdrop?: string | undefined;
  /** Markup inside the composition element. */
  body?: string;
  /** Markup after the composition element, before the closing body tag (scripts). */
  after?: string;
  /** Markup in <head> after the styles. */
  head?: string;
  /** Declarations for data-composition-variables. */
  variables?: unknown[];
}

/** One composition page, 320x180 unless told otherwise. */
export function compositionHtml(spec: CompositionSpec): string {
  const id = spec.id ?? "test";
  const width = spec.width ?? 320;
  const height = spec.height ?? 180;
  const variables = spec.variables ? ` data-composition-variables='${JSON.stringify(spec.variables)}'` : "";
  const duration = spec.duration === undefined ? "" : ` data-duration="${spec.duration}"`;
  const background = spec.background ? ` background: ${spec.background};` : "";
  const backdrop = spec.backdrop
    ? `<div data-backdrop style="position: absolute; left: 0; top: 0; width: ${width}px; height: ${height}px; background: ${spec.backdrop};"></div>\n`
    : "";
  return `<!doctype html>
<html${variables}>
<head>
<meta charset="utf-8">
<style>
  * { margin: 0; padding: 0; box-sizing: border-box; }
  #stage { position: relative; width: ${width}px; height: ${height}px; overflow: hidden;${background} }
  ${spec.css ?? ""}
</style>
${spec.head ?? ""}
</head>
<body>
<div id="stage" data-composition-id="${id}" data-width="${width}" data-height="${height}"${duration}>
${backdrop}${spec.body ?? ""}
</div>
${spec.after ?? ""}
</body>
</html>
`;
}
