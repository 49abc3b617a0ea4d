import { momentLabel, plural, type SnapshotOutput } from "@compose/core";

/** `compose snapshot` as a person reads it: where the snapshot is, and its moments labelled as on the sheet. */
export function formatSnapshotText(taken: SnapshotOutput): string {
  return `${taken.output}: ${plural(taken.moments.length, "moment")}\n${taken.moments.map((moment) => `  ${momentLabel(moment)}\n`).join("")}`;
}
