import { MAX_SNAPSHOT_MOMENTS } from "@compose/core/options";
import { UsageError } from "../usage-error.js";

/** How many moments a snapshot takes when neither --at nor --count says. */
export const DEFAULT_MOMENT_COUNT = 8;

export interface MomentFlags {
  at?: string;
  count?: string;
}

/** Which moments `--at` (times in seconds) or `--count` (spread evenly) ask for, as snapshot() takes them. */
export function momentsFromFlags(flags: MomentFlags): { times: number[] } | { count: number } {
  if (flags.at !== undefined && flags.count !== undefined) throw new UsageError("--at and --count cannot be combined: choose one");
  if (flags.at !== undefined) {
    const times = flags.at.split(",").map((text) => {
      const time = Number(text);
      if (text.trim() === "" || !Number.isFinite(time) || time < 0) {
        throw new UsageError(`--at must be times in seconds, 0 or more, separated by commas, such as 0,1.5,3 (got ${flags.at})`);
      }
      return time;
    });
    if (times.length > MAX_SNAPSHOT_MOMENTS) throw new UsageError(`--at takes at most ${MAX_SNAPSHOT_MOMENTS} times (got ${times.length})`);
    return { times };
  }
  if (flags.count === undefined) return { count: DEFAULT_MOMENT_COUNT };
  const count = /^\d+$/.test(flags.count.trim()) ? Number(flags.count) : Number.NaN;
  if (!(count >= 1 && count <= MAX_SNAPSHOT_MOMENTS))
    throw new UsageError(`--count must be a whole number from 1 to ${MAX_SNAPSHOT_MOMENTS} (got ${flags.count})`);
  return { count };
}
