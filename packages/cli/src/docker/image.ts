import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { firstLine, runTool } from "../doctor/run-tool.js";
import { CLI_VERSION, cliPackageFile } from "../package-dir.js";
import { IMAGE_NAME, PINNED_LABEL, versionLabel, versionsOfLabels, type ImageVersions } from "./image-versions.js";

/** The repository this CLI runs from (packages/cli -> the root), where the Dockerfile is. */
export function repositoryRoot(): string {
  return cliPackageFile("..", "..");
}

/**
 * sha256:<hex> of the repository's package-lock.json, as the image's `compose.lock` label records
 * it; undefined where the CLI runs without its repository (installed from a package).
 */
export function lockDigest(root: string = repositoryRoot()): string | undefined {
  try {
    return `sha256:${createHash("sha256")
      .update(readFileSync(join(root, "package-lock.json")))
      .digest("hex")}`;
  } catch {
    return undefined;
  }
}

/** An image the engine has, with the versions its labels record. */
export interface LocalImage {
  /** compose-render:<digest>, or the reference the user gave. */
  tag: string;
  /** Undefined for an image `compose docker build` did not label. */
  versions: ImageVersions | undefined;
  pinned: boolean;
}

/** The image `reference` as the engine has it; undefined when it has none by that name. */
export async function inspectImage(reference: string): Promise<LocalImage | undefined> {
  const run = await runTool("docker", ["image", "inspect", "--format", "{{json .Config.Labels}}", reference], 30_000);
  if (!run.started || run.code !== 0) return undefined;
  let labels: Record<string, string> | null = null;
  try {
    labels = JSON.parse(firstLine(run.stdout)) as Record<string, string> | null;
  } catch {
    // no labels to read
  }
  return { tag: reference, versions: versionsOfLabels(labels), pinned: labels?.[PINNED_LABEL] === "true" };
}

/** Every labelled compose-render image the engine has, newest first. */
export async function listImages(): Promise<LocalImage[]> {
  const run = await runTool(
    "docker",
    ["image", "ls", "--filter", `label=${versionLabel("version")}`, "--format", "{{.Repository}}:{{.Tag}}", IMAGE_NAME],
    30_000,
  );
  if (!run.started || run.code !== 0) return [];
  const tags = [
    ...new Set(
      run.stdout
        .split("\n")
        .map((line) => line.trim())
        .filter((line) => line !== "" && !line.endsWith(":<none>")),
    ),
  ];
  const images = await Promise.all(tags.map(inspectImage));
  return images.filter((image): image is LocalImage => image !== undefined);
}

/**
 * The image `compose render --docker` uses without --image: one built from the Dockerfile's pins
 * for this version of compose and this lock file. Undefined when the engine has none.
 */
export function pinnedImageOf(images: LocalImage[], version: string = CLI_VERSION, lock: string | undefined = lockDigest()): LocalImage | undefined {
  return images.find((image) => image.pinned && image.versions?.version === version && (lock === undefined || image.versions.lock === lock));
}
