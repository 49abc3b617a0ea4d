import { plural, printable, type LintFinding, type LintOutput } from "@compose/core";

/**
 * One line per finding, `file:line:col  severity  code  message`, then a summary line. File names
 * and messages carry the composition's text: escaped as render escapes its messages, so control
 * and direction characters cannot forge or reorder what the terminal shows.
 */
export function formatLintText(findings: LintFinding[], files: string[]): string {
  const lines = findings.map((f) => printable(`${f.file}:${f.line}:${f.column}  ${f.severity}  ${f.code}  ${f.message}`));
  const { errors, warnings } = countSeverities(findings);
  lines.push(`${plural(errors, "error")}, ${plural(warnings, "warning")} in ${plural(files.length, "file")}`);
  return `${lines.join("\n")}\n`;
}

/** What `compose lint --json` prints: the files, the counts, the findings. */
export function lintOutput(findings: LintFinding[], files: string[]): LintOutput {
  return { files, ...countSeverities(findings), findings };
}

export function formatLintJson(findings: LintFinding[], files: string[]): string {
  return `${JSON.stringify(lintOutput(findings, files), null, 2)}\n`;
}

export function countSeverities(findings: LintFinding[]): { errors: number; warnings: number } {
  const errors = findings.filter((finding) => finding.severity === "error").length;
  return { errors, warnings: findings.length - errors };
}
