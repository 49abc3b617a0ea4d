import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runTool } from "../doctor/run-tool.js";

/** Name of the image container renders run in; its tag is the CLI's version. */
export const IMAGE_NAME = "compose-render";

/** The CLI's version, as `compose --version` prints it. */
export function cliVersion(): string {
  // This file is dist/docker/image.js (src/docker/image.ts in tests): the package is two levels up.
  const manifest = readFileSync(new URL("../../package.json", import.meta.url), "utf8");
  return (JSON.parse(manifest) as { version: string }).version;
}

/** compose-render:<version>: one image per version of the project. */
export function imageTag(version: string = cliVersion()): string {
  return `${IMAGE_NAME}:${version}`;
}

/** The repository this CLI runs from (packages/cli/dist/docker -> the root), where the Dockerfile is. */
export function repositoryRoot(): string {
  return fileURLToPath(new URL("../../../../", import.meta.url)).replace(/[\\/]$/, "");
}

/** `docker build` of the image from the repository root (the Dockerfile and .dockerignore there). */
export function dockerBuildArgs(tag: string, root: string): string[] {
  return ["build", `--tag=${tag}`, `--file=${join(root, "Dockerfile")}`, root];
}

/** True when the engine already has the image (checked only after the engine answered). */
export async function imageExists(tag: string, timeoutMs = 30_000): Promise<boolean> {
  const run = await runTool("docker", ["image", "inspect", "--format", "{{.Id}}", tag], timeoutMs);
  return run.started && run.code === 0;
}
