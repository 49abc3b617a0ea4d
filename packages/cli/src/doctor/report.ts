import { plural, type DoctorOutput } from "@compose/core";
import type { CheckResult, CheckStatus } from "./checks.js";

export const MARKS: Record<CheckStatus, string> = { pass: "✓", warn: "!", fail: "✗" };
const COLOURS: Record<CheckStatus, string> = { pass: "\x1b[32m", warn: "\x1b[33m", fail: "\x1b[31m" };
const RESET = "\x1b[0m";

export interface DoctorSummary {
  /** True when nothing that rendering needs failed (warnings allowed). */
  ok: boolean;
  passed: number;
  warnings: number;
  failed: number;
}

export function summarize(checks: CheckResult[]): DoctorSummary {
  const count = (status: CheckStatus) => checks.filter((check) => check.status === status).length;
  const failed = count("fail");
  return { ok: failed === 0, passed: count("pass"), warnings: count("warn"), failed };
}

/** One line per check with its mark; under each warning or failure, the command that fixes it. */
export function formatDoctorText(checks: CheckResult[], colour = false): string {
  const width = Math.max(...checks.map((check) => check.name.length));
  const lines: string[] = [];
  for (const check of checks) {
    const mark = colour ? `${COLOURS[check.status]}${MARKS[check.status]}${RESET}` : MARKS[check.status];
    lines.push(`${mark} ${check.name.padEnd(width)}  ${check.detail}`);
    if (check.fix && check.status !== "pass") lines.push(`  ${" ".repeat(width)}  fix: ${check.fix}`);
  }
  const { failed, warnings } = summarize(checks);
  const warned = warnings === 0 ? "" : ` (${plural(warnings, "warning")})`;
  lines.push("");
  lines.push(
    failed === 0 ? `Ready to render${warned}.` : `${plural(failed, "check")} failed${warned}: compose render needs ${failed === 1 ? "it" : "them"} fixed.`,
  );
  return `${lines.join("\n")}\n`;
}

export function formatDoctorJson(checks: CheckResult[]): string {
  const output: DoctorOutput = { ...summarize(checks), checks };
  return `${JSON.stringify(output, null, 2)}\n`;
}
