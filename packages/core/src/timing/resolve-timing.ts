import { quote } from "../text/quote.js";
import { parseStartExpression } from "./start-expression.js";

export interface TimingInput {
  id?: string;
  /** Raw data-start text; absent means 0. */
  start?: string;
  /** Seconds; undefined when unknown (no data-duration and nothing probed yet). */
  duration?: number;
}

export interface ResolvedTiming {
  start: number;
  duration: number | undefined;
  end: number | undefined;
}

export type TimingErrorCode = "bad-start" | "unknown-reference" | "reference-without-duration" | "cycle" | "negative-start";

export interface TimingError {
  code: TimingErrorCode;
  /** Index into the inputs of the element whose start cannot be resolved. */
  index: number;
  /** The ids involved: the element and its reference, or the whole chain of a cycle. */
  ids: string[];
  message: string;
}

const UNVISITED = 0;
const IN_PROGRESS = 1;
const DONE = 2;

/**
 * Resolves every start to seconds. Only the root cause of a failure is reported: an element that
 * starts after an element whose start failed stays unresolved without an error of its own.
 * The walk is iterative because a chain of references can be as long as the document.
 */
export function resolveTiming(inputs: TimingInput[]): { timings: Array<ResolvedTiming | undefined>; errors: TimingError[] } {
  const indexById = new Map<string, number>();
  inputs.forEach((input, index) => {
    if (input.id !== undefined && !indexById.has(input.id)) indexById.set(input.id, index);
  });
  const expressions = inputs.map((input) => parseStartExpression(input.start ?? "0"));
  const timings: Array<ResolvedTiming | undefined> = inputs.map(() => undefined);
  const state = new Uint8Array(inputs.length);
  const errors: TimingError[] = [];
  const id = (index: number): string => inputs[index]?.id ?? `element #${index + 1}`;
  const name = (index: number): string => {
    const value = inputs[index]?.id;
    return value === undefined ? `element #${index + 1}` : quote(value);
  };

  const finish = (index: number, start: number | undefined, description: string): void => {
    state[index] = DONE;
    if (start === undefined) return;
    if (start < 0) {
      errors.push({
        code: "negative-start",
        index,
        ids: [id(index)],
        message: `${name(index)} would start at ${start} s (${description}); a start must be 0 or later`,
      });
      return;
    }
    const duration = inputs[index]?.duration;
    timings[index] = { start, duration, end: duration === undefined ? undefined : start + duration };
  };

  for (let first = 0; first < inputs.length; first++) {
    if (state[first] !== UNVISITED) continue;
    state[first] = IN_PROGRESS;
    const stack = [first];
    while (stack.length > 0) {
      const index = stack[stack.length - 1]!;
      if (state[index] === DONE) {
        stack.pop();
        continue;
      }
      const expression = expressions[index]!;
      if ("error" in expression) {
        errors.push({ code: "bad-start", index, ids: [id(index)], message: `${name(index)}: ${expression.error}` });
        finish(index, undefined, "");
        continue;
      }
      if (expression.kind === "seconds") {
        finish(index, expression.seconds, `data-start ${expression.seconds}`);
        continue;
      }
      const { ref, offset } = expression;
      const description = offset === 0 ? `after ${ref}` : `${ref} ${offset < 0 ? "-" : "+"} ${Math.abs(offset)}`;
      const target = indexById.get(ref);
      if (target === undefined) {
        errors.push({
          code: "unknown-reference",
          index,
          ids: [id(index), ref],
          message: `${name(index)} starts after ${quote(ref)}, but no timed element has that id`,
        });
        finish(index, undefined, "");
      } else if (state[target] === IN_PROGRESS) {
        errors.push(cycleError(stack.slice(stack.lastIndexOf(target)), id));
        for (const member of stack.slice(stack.lastIndexOf(target))) state[member] = DONE;
      } else if (state[target] === UNVISITED) {
        state[target] = IN_PROGRESS;
        stack.push(target);
      } else {
        const reference = timings[target];
        if (reference !== undefined && reference.end === undefined) {
          errors.push({
            code: "reference-without-duration",
            index,
            ids: [id(index), ref],
            message: `${name(index)} starts after ${quote(ref)}, whose duration is unknown: give ${quote(ref)} a data-duration`,
          });
        }
        finish(index, reference?.end === undefined ? undefined : reference.end + offset, description);
      }
    }
  }
  return { timings, errors };
}

/** `members` each start after the next; the last starts after the first. */
function cycleError(members: number[], id: (index: number) => string): TimingError {
  // Start the chain at the element that comes first in the document so the message is stable.
  const first = members.indexOf(members.reduce((lowest, member) => Math.min(lowest, member)));
  const chain = [...members.slice(first), ...members.slice(0, first)];
  const ids = [...chain, chain[0]!].map(id);
  return { code: "cycle", index: chain[0]!, ids, message: `start times form a cycle: ${ids.join(" -> ")}` };
}

/** Where a composition's duration came from, in the order the rule tries them. */
export const DURATION_SOURCES = ["data-duration", "clips", "timelines"] as const;
export type DurationSource = (typeof DURATION_SOURCES)[number];

/**
 * The duration rule: the declared data-duration; else the end of the timed element (clip, media,
 * instance) that ends last; else the longest timeline registered in window.__timelines, which only
 * a page that ran its scripts knows.
 */
export function compositionDuration(
  declared: number | undefined,
  timings: Array<ResolvedTiming | undefined>,
  longestTimeline?: number,
): { duration: number | undefined; source: DurationSource | undefined } {
  if (declared !== undefined) return { duration: declared, source: "data-duration" };
  let last: number | undefined;
  for (const timing of timings) {
    if (timing?.end !== undefined && (last === undefined || timing.end > last)) last = timing.end;
  }
  if (last !== undefined) return { duration: last, source: "clips" };
  if (longestTimeline !== undefined && longestTimeline > 0) return { duration: longestTimeline, source: "timelines" };
  return { duration: undefined, source: undefined };
}
