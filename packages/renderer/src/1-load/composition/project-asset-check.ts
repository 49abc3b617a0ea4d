import { realpath } from "node:fs/promises";
import { relative, sep } from "node:path";
import type { CheckAsset } from "@compose/core";
import { whyNotServed } from "../serve/project-server.js";

/**
 * How lint checks a file the page would load from the project served at `projectDir`: by the
 * rules the project server serves it by, so lint's finding and the render's refusal agree.
 */
export function projectAssetCheck(projectDir: string): CheckAsset {
  const root = realpath(projectDir);
  return async (path) => {
    const urlPath = relative(projectDir, path).split(sep).map(encodeURIComponent).join("/");
    if (urlPath.startsWith("..")) return "is outside the project";
    return whyNotServed(await root, `/${urlPath}`);
  };
}
