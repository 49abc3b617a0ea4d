import { dirname, relative, sep } from "node:path";
import { extractCompositionMetadata, type CompositionMetadata, type CompositionInfoReport } from "@compose/core";

/** What the composition's files say, read as lint read them (paths relative to the current directory). */
export interface SourceFiles {
  entryFile: string;
  texts: ReadonlyMap<string, string>;
  /** The file a host's data-composition-src names, from the file holding it (the renderer's resolver). */
  resolve: (fromFile: string, src: string) => string;
}

/** The facts of the source alone, and why a page must be loaded for the rest, if it must. */
export interface SourceFacts {
  metadata: CompositionMetadata;
  /** Why the source does not settle the duration or the media, or undefined when it does. */
  pageNeeded: string | undefined;
  subCompositions: CompositionInfoReport["subCompositions"];
}

/** The name a message gives an element: `video "intro"`, or `video 2` (its place among the media) without an id. */
function named(kind: string, id: string | undefined, index: number): string {
  return id === undefined ? `${kind} ${index + 1}` : `${kind} "${id}"`;
}

/**
 * Why the duration the source gives may not be the composition's, or undefined when it is: a
 * data-duration is; the end of the last timed element is only when every timed element's end is
 * in the source (a video or audio without data-duration lasts as long as its file, a host as long
 * as its composition when that one is settled); without either, the longest GSAP timeline decides.
 */
export function durationUnsettled(metadata: CompositionMetadata): string | undefined {
  if (metadata.durationSource === "data-duration") return undefined;
  const index = metadata.media.findIndex((media) => media.kind !== "img" && media.duration === undefined);
  const media = metadata.media[index];
  if (media) return `no data-duration, and ${named(media.kind, media.id, index)} plays for its file's length, which the page's media probe tells`;
  const host = metadata.instances.find((instance) => instance.duration === undefined);
  if (host) return `no data-duration, and instance "${host.id ?? host.src}" lasts as long as ${host.src}, whose duration the source does not settle`;
  if (metadata.duration === undefined)
    return "no data-duration and no timed element ends at a time the source gives: the longest registered GSAP timeline decides, which only the page knows";
  return undefined;
}

/** Why the page is needed for the media: a timed video or audio whose src a script sets. */
function mediaUnknown(metadata: CompositionMetadata): string | undefined {
  const index = metadata.media.findIndex((media) => media.kind !== "img" && media.src === undefined);
  const media = metadata.media[index];
  return media && `${named(media.kind, media.id, index)} has no src in the source: a script sets it`;
}

/**
 * Each composition file's metadata, a host without data-duration lasting as long as the
 * composition it embeds when the source settles that one's duration.
 */
function metadataReader(files: SourceFiles): (file: string) => CompositionMetadata | undefined {
  const read = new Map<string, CompositionMetadata | undefined>();
  const reading = new Set<string>();
  const metadataOf = (file: string): CompositionMetadata | undefined => {
    if (read.has(file)) return read.get(file);
    const html = files.texts.get(file);
    // A file that embeds itself through a chain is lint's finding; its hosts get no duration here.
    if (html === undefined || reading.has(file)) return undefined;
    reading.add(file);
    const metadata = extractCompositionMetadata(html, {
      embeddedDuration: (src) => {
        const embedded = metadataOf(files.resolve(file, src));
        return embedded && durationUnsettled(embedded) === undefined ? embedded.duration : undefined;
      },
    });
    reading.delete(file);
    read.set(file, metadata);
    return metadata;
  };
  return metadataOf;
}

/** The compositions the entry embeds (at any depth), each with its instances: paths relative to the project directory. */
function subCompositions(files: SourceFiles, metadataOf: (file: string) => CompositionMetadata | undefined): SourceFacts["subCompositions"] {
  const projectDir = dirname(files.entryFile);
  const shown = (file: string) => relative(projectDir, file).split(sep).join("/");
  const found = new Map<string, SourceFacts["subCompositions"][number]>();
  for (const hostFile of files.texts.keys()) {
    for (const instance of metadataOf(hostFile)?.instances ?? []) {
      const file = files.resolve(hostFile, instance.src);
      const embedded = metadataOf(file);
      if (!found.has(file)) {
        found.set(file, {
          file: shown(file),
          id: embedded?.id ?? null,
          duration: embedded && durationUnsettled(embedded) === undefined ? (embedded.duration ?? null) : null,
          variables: embedded?.variables.map((variable) => variable.id) ?? [],
          instances: [],
        });
      }
      found.get(file)!.instances.push({
        id: instance.id ?? null,
        in: shown(hostFile),
        start: instance.start ?? null,
        duration: instance.duration ?? null,
        values: instance.values as Record<string, unknown>,
      });
    }
  }
  return [...found.values()];
}

/** What the composition's files say of it, without a browser. */
export function sourceFacts(files: SourceFiles): SourceFacts {
  const metadataOf = metadataReader(files);
  const metadata = metadataOf(files.entryFile) ?? extractCompositionMetadata(files.texts.get(files.entryFile) ?? "");
  return {
    metadata,
    pageNeeded: durationUnsettled(metadata) ?? mediaUnknown(metadata),
    subCompositions: subCompositions(files, metadataOf),
  };
}
