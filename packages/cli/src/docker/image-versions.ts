import { createHash } from "node:crypto";

/** Name of the images container renders run in; each is tagged by the digest of its labels. */
export const IMAGE_NAME = "compose-render";

/** Prefix of the labels `compose docker build` gives an image. */
const LABEL_PREFIX = "compose.";

/**
 * What an image holds, as the Dockerfile lists it in /compose/versions (`key=value` lines) and
 * `compose docker build` copies it into the image's labels, `compose.<key>`.
 */
export const VERSION_KEYS = [
  /** compose's own version (`compose --version`). */
  "version",
  /** `snapshot <instant>` (snapshot.debian.org) or `current` (Debian's archive as it was when the image was built). */
  "archive",
  /** The base image the build was given. */
  "base-image",
  "browser",
  "ffmpeg",
  "fonts",
  "node",
  /** sha256 of package-lock.json: every npm package, the default fonts among them. */
  "lock",
  /** sha256 of every Debian package in the image with its version: the libraries the browser loads. */
  "debian-packages",
] as const;
export type VersionKey = (typeof VERSION_KEYS)[number];
export type ImageVersions = Record<VersionKey, string>;

/**
 * `compose.pinned=true`: built from the Dockerfile's pins (its base image and snapshot), the image
 * `compose render --docker` takes by default. Any other build says false.
 */
export const PINNED_LABEL = `${LABEL_PREFIX}pinned`;

export function versionLabel(key: VersionKey): string {
  return `${LABEL_PREFIX}${key}`;
}

/** The versions in /compose/versions; undefined when a key is missing (not an image of this Dockerfile). */
export function parseVersionsFile(text: string): ImageVersions | undefined {
  const entries = new Map<string, string>();
  for (const line of text.split("\n")) {
    const at = line.indexOf("=");
    if (at > 0) entries.set(line.slice(0, at), line.slice(at + 1).trim());
  }
  const versions: Partial<ImageVersions> = {};
  for (const key of VERSION_KEYS) {
    const value = entries.get(key);
    if (value === undefined || value === "") return undefined;
    versions[key] = value;
  }
  return versions as ImageVersions;
}

/** The labels of an image holding `versions`. */
export function imageLabels(versions: ImageVersions, pinned: boolean): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const key of VERSION_KEYS) labels[versionLabel(key)] = versions[key];
  labels[PINNED_LABEL] = String(pinned);
  return labels;
}

/** The versions an image's labels record; undefined for an image `compose docker build` did not label. */
export function versionsOfLabels(labels: Record<string, string> | null | undefined): ImageVersions | undefined {
  if (!labels) return undefined;
  return parseVersionsFile(VERSION_KEYS.map((key) => `${key}=${labels[versionLabel(key)] ?? ""}`).join("\n"));
}

/**
 * compose-render:<digest>: the first 16 hex digits of the sha256 of the labels, so two images
 * share a tag only when they hold the same versions from the same kind of build, and an image
 * built from the current archive never passes for the pinned one.
 */
export function imageTagOf(labels: Record<string, string>): string {
  const text = Object.keys(labels)
    .sort()
    .map((name) => `${name}=${labels[name]}\n`)
    .join("");
  return `${IMAGE_NAME}:${createHash("sha256").update(text).digest("hex").slice(0, 16)}`;
}

/** One line naming what the image holds, for doctor and the build's summary. */
export function describeVersions(versions: ImageVersions): string {
  const archive = versions.archive === "current" ? "Debian's current archive" : versions.archive.replace(/^snapshot /, "Debian snapshot ");
  return `${versions.browser}, ${versions.ffmpeg}, Node.js ${versions.node.replace(/^v/, "")}, ${versions.fonts}; from ${archive} on ${versions["base-image"]}`;
}
