import { describe, expect, it } from "vitest";
import { extractCompositionMetadata } from "@compose/core";
import { withInstanceValues } from "./instance-values.js";

const HTML = `<div data-composition-id="main" data-width="320" data-height="180">
<div id="a" data-composition-id="card-a" data-composition-src="card.html" data-variable-values='{"label": "A"}'></div>
<div data-composition-id="card-b" data-composition-src="card.html"/>
<div data-composition-id="card-c" data-composition-src="card.html"></div>
</div>`;

describe("withInstanceValues", () => {
  it("replaces or adds data-variable-values of the hosts named, and leaves the others", () => {
    const html = withInstanceValues(HTML, { "card-a": { label: `say "hi" & go` }, "card-b": { label: "B" } });
    const instances = extractCompositionMetadata(html).instances;
    expect(instances.map((instance) => [instance.id, instance.values])).toEqual([
      ["card-a", { label: `say "hi" & go` }],
      ["card-b", { label: "B" }],
      ["card-c", {}],
    ]);
    expect(withInstanceValues(HTML, {})).toBe(HTML);
  });
});
