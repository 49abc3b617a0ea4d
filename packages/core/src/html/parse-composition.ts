import { assetReferences } from "./asset-references.js";
import { parse, type DefaultTreeAdapterTypes } from "parse5";
import { quote } from "../text/quote.js";
import { parseVariableDeclarations } from "../variables/parse-declarations.js";
import { parseVariableValues } from "../variables/parse-values.js";
import { attribute, attributeLocation, attributeText, elementLocation } from "./attributes.js";
import { parseDecimal, parseWholeNumber } from "./numbers.js";
import type {
  CompositionProblem,
  CompositionRoot,
  AttributeUse,
  MediaReference,
  ParsedComposition,
  ScriptReference,
  SubCompositionHost,
  TimedElement,
  TimedElementKind,
  VariableValuesAttribute,
} from "./types.js";
import { walkElements, type Element } from "./walk-elements.js";

const MEDIA_KINDS: Partial<Record<string, TimedElementKind>> = { video: "video", audio: "audio", img: "img" };
const MEDIA_URL_ATTRIBUTES: Record<string, string[]> = { img: ["src"], video: ["src", "poster"], audio: ["src"], source: ["src"] };

/** Reads the composition model out of HTML without running it. Never throws on bad markup. */
export function parseComposition(html: string, options: { file?: string } = {}): ParsedComposition {
  const document = parse(html, { sourceCodeLocationInfo: true });
  const problems: CompositionProblem[] = [];
  const rootElement = findRootElement(document);
  const htmlElement = document.childNodes.find((node): node is Element => "tagName" in node && node.tagName === "html");
  const variablesAttribute =
    (htmlElement && attributeText(htmlElement, "data-composition-variables", html)) ??
    (rootElement && attributeText(rootElement, "data-composition-variables", html));
  const parsed: ParsedComposition = {
    file: options.file,
    root: undefined,
    elements: [],
    hosts: [],
    variablesAttribute,
    declarations: parseVariableDeclarations(variablesAttribute?.text),
    media: [],
    references: assetReferences(document, html),
    ...readScriptsAndAttributes(document),
    problems,
  };
  if (rootElement === undefined) {
    problems.push({
      code: "no-composition-root",
      message: "not a composition: no element has data-composition-id with data-width and data-height",
      loc: { line: 1, column: 1, offset: 0 },
    });
    return parsed;
  }
  parsed.root = readRoot(rootElement, problems);
  for (const element of walkElements(rootElement, { intoTemplates: false })) {
    parsed.media.push(...mediaReferences(element));
    const timed = readTimedElement(element, problems);
    if (timed === undefined) continue;
    if (timed.kind === "host") parsed.hosts.push(readHost(element, timed, parsed.elements.length, html, problems));
    parsed.elements.push(timed);
  }
  return parsed;
}

/** Scripts and data-* attributes of the whole file, which rules about a composition's code read. */
function readScriptsAndAttributes(document: DefaultTreeAdapterTypes.Document): { scripts: ScriptReference[]; dataAttributes: AttributeUse[] } {
  const scripts: ScriptReference[] = [];
  const dataAttributes: AttributeUse[] = [];
  for (const element of walkElements(document, { intoTemplates: true })) {
    for (const { name } of element.attrs) {
      if (name.startsWith("data-")) dataAttributes.push({ name, tagName: element.tagName, loc: attributeLocation(element, name) });
    }
    if (element.tagName !== "script") continue;
    const text = element.childNodes.map((node) => ("value" in node && node.nodeName === "#text" ? node.value : "")).join("");
    const startTag = element.sourceCodeLocation?.startTag;
    const loc = elementLocation(element);
    const textLoc = startTag ? { line: startTag.endLine, column: startTag.endCol, offset: startTag.endOffset } : loc;
    scripts.push({ src: attribute(element, "src"), text, loc, textLoc });
  }
  return { scripts, dataAttributes };
}

/**
 * The root is the first element with data-composition-id and a size. Failing that, the first with an
 * id or the first with a size, so that a root missing one attribute is reported as such rather than
 * as "no composition". Template content is searched: a sub-composition file may wrap its root in one.
 */
function findRootElement(document: DefaultTreeAdapterTypes.Document): Element | undefined {
  let withIdOnly: Element | undefined;
  let withSizeOnly: Element | undefined;
  for (const element of walkElements(document, { intoTemplates: true })) {
    if (attribute(element, "data-composition-src") !== undefined) continue;
    const hasId = attribute(element, "data-composition-id") !== undefined;
    const hasSize = attribute(element, "data-width") !== undefined || attribute(element, "data-height") !== undefined;
    if (hasId && hasSize) return element;
    if (hasId) withIdOnly ??= element;
    else if (hasSize) withSizeOnly ??= element;
  }
  return withIdOnly ?? withSizeOnly;
}

function readRoot(element: Element, problems: CompositionProblem[]): CompositionRoot {
  const id = attribute(element, "data-composition-id");
  const owner = `the composition root ${describeElement(element)}`;
  // An empty id counts as missing; an empty size is reported by readNumber as not a number.
  const missing = [...(id ? [] : ["data-composition-id"]), ...["data-width", "data-height"].filter((name) => attribute(element, name) === undefined)];
  for (const name of missing) {
    problems.push({
      code: "root-missing-attribute",
      message: `${owner} has no ${name}; a composition needs data-composition-id, data-width and data-height`,
      loc: elementLocation(element),
    });
  }
  return {
    id: id || undefined,
    tagName: element.tagName,
    width: readNumber(element, "data-width", PIXELS, problems, owner),
    height: readNumber(element, "data-height", PIXELS, problems, owner),
    duration: readNumber(element, "data-duration", COMPOSITION_SECONDS, problems, owner),
    durationWritten: attribute(element, "data-duration") !== undefined,
    style: attribute(element, "style"),
    opaque: isOpaque(attribute(element, "data-opaque")),
    loc: elementLocation(element),
  };
}

/** `data-opaque`, `data-opaque=""` or `data-opaque="true"`: the author means the frame to be opaque. */
function isOpaque(value: string | undefined): boolean {
  return value !== undefined && value.trim().toLowerCase() !== "false";
}

function readTimedElement(element: Element, problems: CompositionProblem[]): TimedElement | undefined {
  const start = attribute(element, "data-start");
  const kind: TimedElementKind | undefined =
    attribute(element, "data-composition-src") !== undefined ? "host" : start === undefined ? undefined : (MEDIA_KINDS[element.tagName] ?? "clip");
  if (kind === undefined) return undefined;
  const hasAudio = attribute(element, "data-has-audio");
  return {
    id: (kind === "host" ? attribute(element, "data-composition-id") : undefined) ?? attribute(element, "id"),
    kind,
    tagName: element.tagName,
    start,
    duration: readNumber(element, "data-duration", SECONDS, problems),
    track: readNumber(element, "data-track-index", TRACK, problems),
    src: attribute(element, kind === "host" ? "data-composition-src" : "src"),
    hasAudio: hasAudio === undefined ? (kind === "audio" ? true : undefined) : hasAudio !== "false",
    loc: elementLocation(element),
    startLoc: attributeLocation(element, "data-start"),
  };
}

function readHost(element: Element, timed: TimedElement, index: number, html: string, problems: CompositionProblem[]): SubCompositionHost {
  const id = attribute(element, "data-composition-id") || undefined;
  const src = timed.src ?? "";
  if (id === undefined) {
    problems.push({
      code: "host-missing-id",
      message: `the sub-composition host of ${quote(src)} has no data-composition-id; every instance needs an id`,
      loc: elementLocation(element),
    });
  }
  return { id, src, element: index, variableValues: readVariableValues(element, html), loc: elementLocation(element) };
}

function readVariableValues(element: Element, html: string): VariableValuesAttribute | undefined {
  const text = attributeText(element, "data-variable-values", html);
  if (text === undefined) return undefined;
  const result = parseVariableValues(text.text, "data-variable-values");
  return "values" in result ? { ...text, values: result.values, finding: undefined } : { ...text, values: undefined, finding: result.finding };
}

function mediaReferences(element: Element): MediaReference[] {
  return (MEDIA_URL_ATTRIBUTES[element.tagName] ?? []).flatMap((name) => {
    const url = attribute(element, name);
    return url === undefined ? [] : [{ tagName: element.tagName, attribute: name, url, loc: attributeLocation(element, name) }];
  });
}

interface NumberRule {
  parse(text: string): number | undefined;
  allowed: string;
}

/** Over three centuries: what is longer than the frame limit is refused by that limit; frame counts stay exact. */
const MAX_SECONDS = 10_000_000_000;
const PIXELS: NumberRule = { parse: positive(parseWholeNumber), allowed: "a whole number of pixels greater than 0" };
// Ranges, so that 1e-9 and 1e308 are told what is allowed rather than something they already are.
const COMPOSITION_SECONDS: NumberRule = {
  parse: within(parseDecimal, 0.001, MAX_SECONDS),
  allowed: `a plain number of seconds from 0.001 to ${MAX_SECONDS}, such as 2.5`,
};
const SECONDS: NumberRule = { parse: within(parseDecimal, 0, MAX_SECONDS), allowed: `a plain number of seconds from 0 to ${MAX_SECONDS}` };
const TRACK: NumberRule = { parse: parseWholeNumber, allowed: "a whole number, 0 or more" };

function readNumber(element: Element, name: string, rule: NumberRule, problems: CompositionProblem[], owner = describeElement(element)): number | undefined {
  const text = attribute(element, name);
  if (text === undefined) return undefined;
  const value = rule.parse(text);
  if (value === undefined) {
    problems.push({ code: "invalid-attribute", message: `${name}=${quote(text)} on ${owner} must be ${rule.allowed}`, loc: attributeLocation(element, name) });
  }
  return value;
}

function positive(parseValue: (text: string) => number | undefined): (text: string) => number | undefined {
  return (text) => {
    const value = parseValue(text);
    return value !== undefined && value > 0 ? value : undefined;
  };
}

function within(parseValue: (text: string) => number | undefined, min: number, max: number): (text: string) => number | undefined {
  return (text) => {
    const value = parseValue(text);
    return value !== undefined && value >= min && value <= max ? value : undefined;
  };
}

function describeElement(element: Element): string {
  const id = attribute(element, "id");
  return id ? `<${element.tagName} id=${quote(id)}>` : `<${element.tagName}>`;
}
