import type { LintRule } from "./rule.js";

/** The parser already found these; they become findings as they are. */
export const checkStructure: LintRule = ({ parsed, report }) => {
  for (const problem of parsed.problems) report(problem.code, problem.loc, problem.message);
};
