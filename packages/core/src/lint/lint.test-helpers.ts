import { lintProject } from "./lint-project.js";
import type { FontPackageProblem, LintFinding } from "./types.js";
import type { NetworkMode } from "../options/option-declarations.js";

/** An in-memory project for tests: a file that is an Error cannot be read. */
export type ProjectFiles = Record<string, string | Error>;

/**
 * With `assets`, the files the project holds are checked too: a path not among `files` does not
 * exist. `fontPackageProblems` are what the caller found of the project's font packages.
 */
export async function lintFiles(
  files: ProjectFiles,
  entry = "index.html",
  assets?: { network?: NetworkMode },
  fontPackageProblems?: FontPackageProblem[],
): Promise<LintFinding[]> {
  return lintProject(
    entry,
    async (path) => {
      const file = files[path];
      if (file instanceof Error) throw file;
      return file;
    },
    (from, src) => from.slice(0, from.lastIndexOf("/") + 1) + src,
    {
      // Every font family but those named Nowhere is drawn as itself here.
      knownFontFamily: (family) => !family.startsWith("Nowhere"),
      fontPackageProblems,
      ...(assets && { assets: { ...assets, check: async (path: string) => (path in files ? undefined : "does not exist") } }),
    },
  );
}

const ROOT = 'data-composition-id="main" data-width="320" data-height="180" data-duration="1"';

/** A composition file: `body` goes inside the root; `variables` onto <html>. */
export function composition(body: string, options: { variables?: string; root?: string } = {}): string {
  const variables = options.variables === undefined ? "" : ` data-composition-variables='${options.variables}'`;
  return `<!doctype html>\n<html${variables}>\n<body>\n<div ${options.root ?? ROOT}>\n${body}\n</div>\n</body>\n</html>\n`;
}
