/**
 * Every per-format question is answered by core's format table
 * (packages/core/src/formats/format-table.ts) and its predicates (isFolderOutput,
 * allowsHardwareEncoding, ...), never by testing a format's name: a new format is then one new
 * row. This reads every non-test source file of each package's src and fails on each format name
 * that is compared (`=== "mp4"`, `case "webm":`), listed (`["mp4", "mov"].includes(format)`),
 * searched for (`.includes("webm")`), looked up (`table["mov"]`) or named in a type
 * (`Exclude<OutputFormat, "png-sequence">`). A name that is only given as a value (an option's
 * default, the format a directory asks for, words of a message) is not a question and passes.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { OUTPUT_FORMATS } from "@compose/core";

const root = join(import.meta.dirname, "..", "..");

/** The table itself, and the option declaration that enumerates OUTPUT_FORMATS. */
const ALLOWED = new Set(["packages/core/src/formats/format-table.ts", "packages/core/src/options/option-declarations.ts"]);

const SOURCE = /\.(ts|tsx|mts|cts|js|mjs)$/;
const TEST = /\.test(-helpers)?\.[a-z]+$/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : sourceFiles(path);
    return SOURCE.test(entry.name) && !TEST.test(entry.name) ? [path] : [];
  });
}

/** The expression a literal is the value of, past parentheses and type assertions. */
function outermost(node: ts.Node): ts.Node {
  let at = node;
  while (
    ts.isParenthesizedExpression(at.parent) ||
    ts.isAsExpression(at.parent) ||
    ts.isSatisfiesExpression(at.parent) ||
    ts.isTypeAssertionExpression(at.parent) ||
    ts.isNonNullExpression(at.parent)
  ) {
    at = at.parent;
  }
  return at;
}

const EQUALITY = new Set([
  ts.SyntaxKind.EqualsEqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsEqualsToken,
  ts.SyntaxKind.EqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsToken,
]);
const SEARCHES = new Set(["includes", "indexOf", "lastIndexOf", "has"]);

/** How a format name is used as a question, or undefined when it is only a value. */
function question(literal: ts.Node): string | undefined {
  const use = outermost(literal);
  const parent = use.parent;
  if (ts.isLiteralTypeNode(parent)) return "named in a type";
  if (ts.isBinaryExpression(parent) && EQUALITY.has(parent.operatorToken.kind)) return "compared";
  if (ts.isCaseClause(parent) && parent.expression === use) return "a case";
  if (ts.isArrayLiteralExpression(parent)) return "listed";
  if (ts.isElementAccessExpression(parent) && parent.argumentExpression === use) return "looked up";
  if (ts.isCallExpression(parent) && ts.isPropertyAccessExpression(parent.expression) && SEARCHES.has(parent.expression.name.text)) {
    return "searched for";
  }
  return undefined;
}

interface FormatQuestion {
  line: number;
  name: string;
  how: string;
}

/** Each format name asked about in `text`, by line (from 1). */
function formatQuestions(fileName: string, text: string): FormatQuestion[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const names: readonly string[] = OUTPUT_FORMATS;
  const found: FormatQuestion[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && names.includes(node.text)) {
      const how = question(node);
      if (how) {
        const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
        found.push({ line: line + 1, name: node.text, how });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("per-format questions", () => {
  it("are asked of the format table, never by a format's name, outside the table", () => {
    const files = readdirSync(join(root, "packages")).flatMap((name) => sourceFiles(join(root, "packages", name, "src")));
    expect(files.length).toBeGreaterThan(100);
    const asked = files
      .map((file) => relative(root, file))
      .filter((file) => !ALLOWED.has(file))
      .flatMap((file) => {
        const text = readFileSync(join(root, file), "utf8");
        const lines = text.split("\n");
        return formatQuestions(file, text).map(({ line, name, how }) => `${file}:${line}: "${name}" ${how}: ${lines[line - 1]!.trim()}`);
      });
    expect(asked, "ask FORMAT_TABLE or a predicate of packages/core/src/formats/format-table.ts instead").toEqual([]);
  });

  it("finds comparisons, cases, lists, searches, look-ups and types, and passes names given as values", () => {
    const source = [
      /* 1 */ 'if (options.format === "mp4") run();',
      /* 2 */ "const folder = 'png-sequence' !== format;",
      /* 3 */ 'switch (format) { case "webm": break; }',
      /* 4 */ 'const alpha = ["mov", "webm"].includes(format);',
      /* 5 */ 'const known = formats.includes("mov" as const);',
      /* 6 */ 'const facts = FORMAT_TABLE["png-sequence"];',
      /* 7 */ 'type Video = Exclude<OutputFormat, "png-sequence">;',
      /* 8 */ "const same = (format) == (`mp4`);",
      /* 9 */ 'const option = { default: "mp4", help: "choose mp4, mov or webm" };',
      /* 10 */ 'return { ok: true, format: "png-sequence" };',
      /* 11 */ '// format === "mp4" in a comment',
      /* 12 */ 'const words = "png-sequence writes a folder"; const other = format === "avi";',
    ].join("\n");
    expect(formatQuestions("sample.ts", source)).toEqual([
      { line: 1, name: "mp4", how: "compared" },
      { line: 2, name: "png-sequence", how: "compared" },
      { line: 3, name: "webm", how: "a case" },
      { line: 4, name: "mov", how: "listed" },
      { line: 4, name: "webm", how: "listed" },
      { line: 5, name: "mov", how: "searched for" },
      { line: 6, name: "png-sequence", how: "looked up" },
      { line: 7, name: "png-sequence", how: "named in a type" },
      { line: 8, name: "mp4", how: "compared" },
    ]);
  });
});
