import type { RenderOptions } from "@compose/core";

export interface OptionProblemNote {
  code: string;
  message: string;
  /** A request this render cannot honour at all, rather than one it can approximate. */
  fatal: boolean;
}

/**
 * Options that parse and validate but whose full behaviour is not built yet. Each says plainly
 * what happens instead, so nobody mistakes the output for what they asked for.
 */
export function unsupportedOptionProblems(options: RenderOptions): OptionProblemNote[] {
  const notes: OptionProblemNote[] = [];
  if (options.docker) {
    notes.push({
      code: "docker-unavailable",
      message: "--docker: container mode is not available in this version; render without --docker (use --no-browser-gpu for reproducible local output)",
      fatal: true,
    });
  }
  if (options.gpu) {
    notes.push({
      code: "gpu-unavailable",
      message: "--gpu: hardware encoding is not available in this version; encoding in software",
      fatal: false,
    });
  }
  return notes;
}
