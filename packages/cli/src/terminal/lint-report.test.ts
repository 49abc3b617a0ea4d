import type { LintFinding } from "@compose/core";
import { describe, expect, it } from "vitest";
import { formatLintJson, formatLintText } from "./lint-report.js";

const FINDINGS: LintFinding[] = [
  { file: "a/index.html", line: 3, column: 7, severity: "error", code: "timing-cycle", message: "start times form a cycle: a -> b -> a" },
  { file: "a/card.html", line: 1, column: 1, severity: "warning", code: "inline-media", message: "inline" },
];

describe("formatLintText", () => {
  it("prints one line per finding and a summary", () => {
    expect(formatLintText(FINDINGS, ["a/index.html", "a/card.html"])).toBe(
      [
        "a/index.html:3:7  error  timing-cycle  start times form a cycle: a -> b -> a",
        "a/card.html:1:1  warning  inline-media  inline",
        "1 error, 1 warning in 2 files",
        "",
      ].join("\n"),
    );
  });

  it("prints only the summary when all is well", () => {
    expect(formatLintText([], ["index.html"])).toBe("0 errors, 0 warnings in 1 file\n");
  });
});

describe("formatLintJson", () => {
  it("holds the files, the counts and the findings", () => {
    expect(JSON.parse(formatLintJson(FINDINGS, ["x"]))).toEqual({ files: ["x"], errors: 1, warnings: 1, findings: FINDINGS });
  });
});
