import type { LintRule } from "./rule.js";

export const checkDeclarations: LintRule = ({ parsed, report, locateInAttribute, explainJsonInAttribute }) => {
  const attribute = parsed.variablesAttribute;
  if (attribute === undefined) return;
  for (const finding of parsed.declarations.findings) {
    if (finding.code === "variables-invalid-json") {
      const { location, message } = explainJsonInAttribute(attribute, finding.message, finding.offset);
      report(finding.code, location, message);
    } else {
      report(finding.code, locateInAttribute(attribute, finding.offset), finding.message);
    }
  }
};
