// Where the timeline's lanes, clips and ruler ticks go. No DOM here.
import type { TimelineEntry } from "@compose/runtime";

/** Ruler steps in seconds: the first that leaves this many pixels between labels is used. */
const RULER_STEPS = [0.1, 0.25, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300];
const RULER_MIN_GAP_PX = 64;

export interface LaneItem {
  entry: TimelineEntry;
  /** Names the entry across redraws: its index, prefixed by its instances' (`2/0`). */
  key: string;
}

export interface Lane {
  label: string;
  /** Infinity for elements without a track. */
  track: number;
  depth: number;
  items: LaneItem[];
}

export function formatSeconds(seconds: number | undefined): string {
  return seconds === undefined ? "?" : seconds.toFixed(3);
}

export function entryLabel(entry: TimelineEntry): string {
  return entry.label ?? `(${entry.kind === "clip" ? "unnamed" : entry.kind})`;
}

/** What hovering a clip shows: start, duration, track and, for media and instances, the source (`source` shortens it). */
export function describeEntry(entry: TimelineEntry, source: (src: string) => string = (src) => src): string {
  const duration = entry.duration === undefined ? "to the end" : `${formatSeconds(entry.duration)} s`;
  const parts = [`${entryLabel(entry)} (${entry.kind})`, `start ${formatSeconds(entry.start)} s`, `duration ${duration}`, `track ${entry.track ?? "none"}`];
  if (entry.src) parts.push(`source ${source(entry.src)}`);
  return parts.join(", ");
}

/**
 * Lanes to draw, one per track index in order (untracked elements last); an expanded instance
 * adds the lanes of its own elements right under the lane it sits in.
 */
export function timelineLanes(entries: readonly TimelineEntry[], expanded: ReadonlySet<string>, prefix = "", owner?: string, depth = 0): Lane[] {
  const byTrack = new Map<number, LaneItem[]>();
  entries.forEach((entry, index) => {
    if (entry.start === undefined) return;
    const track = entry.track ?? Infinity;
    const items = byTrack.get(track) ?? [];
    items.push({ entry, key: prefix === "" ? String(index) : `${prefix}/${index}` });
    byTrack.set(track, items);
  });
  const lanes: Lane[] = [];
  for (const track of [...byTrack.keys()].sort((a, b) => a - b)) {
    const name = track === Infinity ? "no track" : `track ${track}`;
    const items = byTrack.get(track)!;
    lanes.push({ label: owner ? `${owner} › ${name}` : name, track, depth, items });
    for (const { entry, key } of items) {
      if (entry.children && expanded.has(key)) lanes.push(...timelineLanes(entry.children, expanded, key, entryLabel(entry), depth + 1));
    }
  }
  return lanes;
}

/** Ruler labels: seconds and their offset in pixels, at the first step that leaves room between labels. */
export function rulerTicks(duration: number, scale: number): Array<{ seconds: number; left: number }> {
  const step = RULER_STEPS.find((candidate) => candidate * scale >= RULER_MIN_GAP_PX) ?? RULER_STEPS.at(-1)!;
  const ticks: Array<{ seconds: number; left: number }> = [];
  for (let i = 0; i * step <= duration + 1e-9; i++) ticks.push({ seconds: +(i * step).toFixed(2), left: i * step * scale });
  return ticks;
}
