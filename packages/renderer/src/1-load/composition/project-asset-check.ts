import { relative } from "node:path";
import type { CheckAsset } from "@compose/core";
import { projectFileProblem } from "../../common/project-file.js";

/**
 * How lint checks a file the page would load from the project at `projectDir`: by the
 * project-file rule the render's file server serves it by, so lint's finding and the render's
 * refusal agree.
 */
export function projectAssetCheck(projectDir: string): CheckAsset {
  return (path) => projectFileProblem(projectDir, relative(projectDir, path));
}
