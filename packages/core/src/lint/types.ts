import type { LintCode, LintSeverity } from "./codes.js";

export interface LintFinding {
  file: string;
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
  severity: LintSeverity;
  code: LintCode;
  message: string;
}
