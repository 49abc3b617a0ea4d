import { quote } from "../../text/quote.js";
import type { TimedElement } from "../../html/types.js";
import type { LintRule } from "./rule.js";

export const checkTiming: LintRule = ({ parsed, timing, report }) => {
  const byId = new Map<string, TimedElement>();
  for (const element of parsed.elements) {
    if (element.id === undefined) continue;
    const first = byId.get(element.id);
    if (!first) {
      byId.set(element.id, element);
      continue;
    }
    report(
      "timing-duplicate-id",
      element.startLoc,
      `another timed element has the id ${quote(element.id)} (line ${first.startLoc.line}): a data-start that names it uses the first`,
    );
  }
  for (const error of timing.errors) {
    const element = parsed.elements[error.index]!;
    const reference = error.ids[1] === undefined ? undefined : byId.get(error.ids[1]);
    if (error.code === "reference-without-duration" && (reference?.kind === "video" || reference?.kind === "audio")) {
      report(
        "timing-media-duration-unknown",
        element.startLoc,
        `${quote(error.ids[0] ?? "")} starts after <${reference.kind}> ${quote(reference.id ?? "")}, which has no data-duration: its length comes from the media file at render time, so lint cannot check this start`,
      );
    } else {
      report(`timing-${error.code}`, element.startLoc, error.message);
    }
  }
};
