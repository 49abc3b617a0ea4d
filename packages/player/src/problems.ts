import type { RenderErrorCode } from "@compose/core";

/** The codes a player's problems take: the render's codes for the same failures. */
export const PLAYER_ERROR_CODES = [
  "invalid-composition",
  "missing-asset",
  "page-error",
  "media-error",
  "not-ready",
] as const satisfies readonly RenderErrorCode[];

export type PlayerErrorCode = (typeof PLAYER_ERROR_CODES)[number];

/** What went wrong with the composition shown, as render would name it: its code and one line. */
export interface PlayerProblem {
  code: PlayerErrorCode;
  message: string;
}

/** The message of anything thrown, whichever frame's realm made it. */
export function errorText(error: unknown): string {
  return (error as { message?: unknown } | null)?.message !== undefined ? String((error as { message: unknown }).message) : String(error);
}

/** A step that took too long fails with what did not happen, and within how long. */
export class NotReadyError extends Error {
  constructor(what: string, ms: number) {
    super(`${what} within ${ms / 1000} s`);
  }
}
