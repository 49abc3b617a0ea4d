import { quote } from "../text/quote.js";

export type StartExpression =
  | { kind: "seconds"; seconds: number }
  /** Starts `offset` seconds after the END of the element whose id is `ref`. */
  | { kind: "relative"; ref: string; offset: number };

const SECONDS = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;
// Ids may contain hyphens, so "intro-2" is an id; an offset needs "+" or "-" after the whole id
// ("intro - 2", "intro-2 + 1", "intro+1").
const RELATIVE = /^([A-Za-z_][\w-]*?)(?:\s*([+-])\s*(\d+(?:\.\d*)?|\.\d+))?$/;
const ID_ONLY = /^[A-Za-z_][\w-]*$/;

const START_EXPRESSION_FORMS = "seconds (2.5), an element id (intro), or an id with an offset (intro + 1, intro - 0.5)";

export function parseStartExpression(text: string): StartExpression | { error: string } {
  const trimmed = text.trim();
  if (SECONDS.test(trimmed)) return { kind: "seconds", seconds: Number(trimmed) };
  if (ID_ONLY.test(trimmed)) return { kind: "relative", ref: trimmed, offset: 0 };
  const match = RELATIVE.exec(trimmed);
  if (match?.[2] !== undefined && match[3] !== undefined && match[1] !== undefined) {
    const offset = Number(match[3]);
    return { kind: "relative", ref: match[1], offset: match[2] === "-" ? -offset : offset };
  }
  return { error: `data-start ${quote(text)} is not a start time: use ${START_EXPRESSION_FORMS}` };
}
