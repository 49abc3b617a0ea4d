import type { z } from "zod";
import type { lintFindingSchema } from "./lint-output.js";

/** One finding of lint: where, how bad, which rule and what it says. */
export type LintFinding = z.infer<typeof lintFindingSchema>;

/**
 * A file of one of the project's font packages that cannot be used (the package, or the face the
 * file holds, is left out): what the caller that reads the packages (the renderer) found, for
 * lint to report as `font-package-invalid` and for the render to warn of.
 */
export interface FontPackageProblem {
  /** The file, as the caller shows it: `node_modules/@fontsource/space-mono/package.json`. */
  file: string;
  /** Where in the file, when it is known (a JSON syntax error). */
  line?: number;
  column?: number;
  /** What is wrong with it and what follows from it, in words. */
  problem: string;
}
