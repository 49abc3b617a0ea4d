import type { SourceLocation } from "../html/types.js";
import { LINT_CODES, type LintCode } from "./codes.js";
import type { LintFinding } from "./types.js";

export type Report = (code: LintCode, loc: Pick<SourceLocation, "line" | "column">, message: string) => void;

/** Collects findings for one file; the severity comes from the code so it is the same everywhere. */
export function createReport(file: string): { report: Report; findings: LintFinding[] } {
  const findings: LintFinding[] = [];
  const report: Report = (code, loc, message) => {
    findings.push({ file, line: loc.line, column: loc.column, severity: LINT_CODES[code], code, message });
  };
  return { report, findings };
}
