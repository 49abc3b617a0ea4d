import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { extractCompositionMetadata, type FolderInfoReport } from "@compose/core";
import { listCompositions } from "../project/list-compositions.js";
import { durationUnsettled } from "./source-facts.js";

/** The compositions of a folder without an index.html, as the studio lists them, each with what its source says. */
export async function folderListing(folder: string, shown: string): Promise<FolderInfoReport> {
  const compositions = await Promise.all(
    (await listCompositions(folder)).map(async (file) => {
      const metadata = extractCompositionMetadata(await readFile(join(folder, file), "utf8").catch(() => ""));
      const duration = durationUnsettled(metadata) === undefined ? metadata.duration : undefined;
      return { file, id: metadata.id ?? "", width: metadata.width ?? null, height: metadata.height ?? null, duration: duration ?? null };
    }),
  );
  return { kind: "folder", folder: shown, compositions };
}
