import { quote } from "../../text/quote.js";
import { validateVariableValues } from "../../variables/validate-values.js";
import type { LintRule } from "./rule.js";

/** data-variable-values must be a JSON object that fits the embedded composition's declarations. */
export const checkHostValues: LintRule = ({ parsed, embedded, report, explainJsonInAttribute }) => {
  for (const host of parsed.hosts) {
    const attribute = host.variableValues;
    if (attribute === undefined) continue;
    const name = `host ${quote(host.id ?? host.src)}`;
    if (attribute.finding !== undefined) {
      const { location, message } = explainJsonInAttribute(attribute, `${name}: ${attribute.finding.message}`, attribute.finding.offset);
      report(attribute.finding.code, location, message);
      continue;
    }
    const composition = embedded(host);
    if (composition === undefined || attribute.values === undefined) continue;
    for (const issue of validateVariableValues(composition.variables, attribute.values)) {
      // Only an undeclared key is a warning, which render goes on past; render refuses the others.
      const said = issue.code === "undeclared" ? issue.message : issue.problem;
      report(`variable-values-${issue.code}`, attribute.loc, `${name} (${host.src}): ${said}`);
    }
  }
};
