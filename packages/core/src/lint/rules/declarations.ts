import type { LintRule } from "./rule.js";

export const checkDeclarations: LintRule = ({ parsed, report, locateInAttribute }) => {
  const attribute = parsed.variablesAttribute;
  if (attribute === undefined) return;
  for (const finding of parsed.declarations.findings) {
    report(finding.code, locateInAttribute(attribute, finding.offset), finding.message);
  }
};
