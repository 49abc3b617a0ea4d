import { execFile } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { delimiter, isAbsolute, join } from "node:path";

export interface ToolRun {
  /** False when the program could not be started at all (not on PATH, not executable). */
  started: boolean;
  /** Exit code; null when killed (timeout) or not started. */
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** Why it could not start (ENOENT, EACCES...). */
  startError?: string;
}

/** Runs a program to completion with a time limit; never rejects. */
export function runTool(program: string, args: string[], timeoutMs = 10_000): Promise<ToolRun> {
  return new Promise((resolve) => {
    execFile(program, args, { timeout: timeoutMs, killSignal: "SIGKILL", maxBuffer: 8 * 1024 * 1024, encoding: "utf8" }, (error, stdout, stderr) => {
      if (!error) return resolve({ started: true, code: 0, stdout, stderr, timedOut: false });
      const code = (error as NodeJS.ErrnoException).code;
      if (typeof code === "string") {
        return resolve({ started: false, code: null, stdout, stderr, timedOut: false, startError: code });
      }
      const killed = (error as { killed?: boolean }).killed === true;
      resolve({ started: true, code: typeof code === "number" ? code : null, stdout, stderr, timedOut: killed });
    });
  });
}

/** Where `program` resolves on PATH (or itself when it is a path), if it is an executable file there. */
export function whichSync(program: string, pathVariable = process.env.PATH ?? ""): string | undefined {
  const candidates =
    isAbsolute(program) || program.includes("/")
      ? [program]
      : pathVariable
          .split(delimiter)
          .filter(Boolean)
          .map((dir) => join(dir, program));
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // next
    }
  }
  return undefined;
}

/** The first non-empty line of a text, trimmed. */
export function firstLine(text: string): string {
  return (
    text
      .split("\n")
      .map((line) => line.trim())
      .find(Boolean) ?? ""
  );
}
