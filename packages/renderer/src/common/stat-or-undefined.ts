import type { Stats } from "node:fs";
import { stat } from "node:fs/promises";

/** The file's status, or undefined when it cannot be had (missing, unreadable, under a file). */
export function statOrUndefined(path: string): Promise<Stats | undefined> {
  return stat(path).catch(() => undefined);
}
