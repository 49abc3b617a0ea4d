import { UsageError } from "../usage-error.js";

/** Which frames `--frame`, `--time` and `--frames` ask for, as render() takes them. */
export interface FrameSelection {
  /** Composition frames, end exclusive; undefined: all of them. */
  frames?: { start: number; end: number };
  /** One frame, written as a PNG file. */
  still: boolean;
  /** For the default output name: `-frame-12`, `-frames-10-20`, or "". */
  suffix: string;
}

export interface FrameFlags {
  frame?: string;
  time?: string;
  frames?: string;
}

function wholeNumber(text: string, flag: string, allowed: string): number {
  if (!/^\d+$/.test(text.trim())) throw new UsageError(`${flag} must be ${allowed} (got ${text})`);
  return Number(text);
}

/**
 * `--frame N` and `--time t` (seconds, rounded to the nearest frame at `fps`) pick one frame,
 * written as a PNG; `--frames a-b` renders frames a to b, both included (`a-` runs to the end).
 */
export function selectFrames(flags: FrameFlags, fps: number): FrameSelection {
  const given = (["frame", "time", "frames"] as const).filter((name) => flags[name] !== undefined);
  if (given.length > 1) throw new UsageError(`--${given[0]} and --${given[1]} cannot be combined: choose one`);
  if (flags.frame !== undefined) {
    const frame = wholeNumber(flags.frame, "--frame", "a frame number, 0 or more");
    return { frames: { start: frame, end: frame + 1 }, still: true, suffix: `-frame-${frame}` };
  }
  if (flags.time !== undefined) {
    const seconds = Number(flags.time);
    if (flags.time.trim() === "" || !Number.isFinite(seconds) || seconds < 0) {
      throw new UsageError(`--time must be a time in seconds, 0 or more (got ${flags.time})`);
    }
    const frame = Math.round(seconds * fps);
    return { frames: { start: frame, end: frame + 1 }, still: true, suffix: `-frame-${frame}` };
  }
  if (flags.frames !== undefined) {
    const match = /^\s*(\d+)\s*-\s*(\d*)\s*$/.exec(flags.frames);
    if (!match) throw new UsageError(`--frames must be a range of frame numbers such as 30-59, or 30- to the end (got ${flags.frames})`);
    const start = Number(match[1]);
    const last = match[2] === "" ? undefined : Number(match[2]);
    if (last !== undefined && last < start) throw new UsageError(`--frames ${flags.frames} ends before it starts`);
    return {
      frames: { start, end: last === undefined ? Number.MAX_SAFE_INTEGER : last + 1 },
      still: false,
      suffix: `-frames-${start}-${last ?? "end"}`,
    };
  }
  return { still: false, suffix: "" };
}
