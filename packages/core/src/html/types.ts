import type { AssetReference } from "./asset-references.js";
import type { CompositionVariable, VariableValues } from "../variables/types.js";
import type { DeclarationFinding } from "../variables/parse-declarations.js";
import type { ValuesFinding } from "../variables/parse-values.js";

export interface SourceLocation {
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
  /** 0-based index into the HTML text. */
  offset: number;
}

export interface AttributeText {
  name: string;
  /** The attribute value after character references are decoded. */
  text: string;
  /** Where the attribute starts. */
  loc: SourceLocation;
  /**
   * Offset in the HTML of the value's first character, when the source spells the value literally
   * (no character references, no CRLF), so that an offset inside the value maps to the file.
   */
  valueOffset: number | undefined;
}

export type TimedElementKind = "clip" | "video" | "audio" | "img" | "host";

export interface TimedElement {
  /** The id attribute; for a sub-composition host, its data-composition-id (the instance id). */
  id: string | undefined;
  kind: TimedElementKind;
  tagName: string;
  /** Raw data-start text; undefined means 0. */
  start: string | undefined;
  /** data-duration in seconds; undefined when absent or invalid. */
  duration: number | undefined;
  track: number | undefined;
  /** src of media, data-composition-src of a host. */
  src: string | undefined;
  /** data-has-audio; an <audio> element has audio unless it says data-has-audio="false". */
  hasAudio: boolean | undefined;
  loc: SourceLocation;
  /** The data-start attribute, or the element when it has none. */
  startLoc: SourceLocation;
}

export interface VariableValuesAttribute extends AttributeText {
  /** Undefined when the attribute is not a JSON object; `finding` says why. */
  values: VariableValues | undefined;
  finding: ValuesFinding | undefined;
}

export interface SubCompositionHost {
  /** data-composition-id. */
  id: string | undefined;
  /** data-composition-src, as written. */
  src: string;
  /** Index of the host in `elements`. */
  element: number;
  variableValues: VariableValuesAttribute | undefined;
  loc: SourceLocation;
}

export interface CompositionRoot {
  id: string | undefined;
  tagName: string;
  width: number | undefined;
  height: number | undefined;
  duration: number | undefined;
  /** Whether data-duration is written at all: one that is invalid is reported as such, not as none. */
  durationWritten: boolean;
  /** The inline style attribute, as written. */
  style: string | undefined;
  /** data-opaque: its background is meant to show in every format, transparent ones too. */
  opaque: boolean;
  loc: SourceLocation;
}

/** A URL a media element loads (src of img/video/audio/source, poster of video). */
export interface MediaReference {
  tagName: string;
  attribute: string;
  url: string;
  loc: SourceLocation;
}

/** A <script> anywhere in the file (template content included), with its inline text. */
export interface ScriptReference {
  src: string | undefined;
  /** The inline code; empty for an external script. */
  text: string;
  loc: SourceLocation;
  /** Where the inline code starts (just after the start tag). */
  textLoc: SourceLocation;
}

/** An attribute found on some element of the file, for rules that look for a name anywhere. */
export interface AttributeUse {
  name: string;
  tagName: string;
  loc: SourceLocation;
}

export type CompositionProblemCode = "no-composition-root" | "root-missing-attribute" | "invalid-attribute" | "host-missing-id";

export interface CompositionProblem {
  code: CompositionProblemCode;
  message: string;
  loc: SourceLocation;
}

export interface ParsedComposition {
  file: string | undefined;
  root: CompositionRoot | undefined;
  /** Every timed element inside the root, in document order. */
  elements: TimedElement[];
  hosts: SubCompositionHost[];
  /** data-composition-variables: on <html>, or on the root when <html> has none (the <template> form). */
  variablesAttribute: AttributeText | undefined;
  declarations: { variables: CompositionVariable[]; findings: DeclarationFinding[] };
  media: MediaReference[];
  /** Every URL the file's markup makes the page load (src, srcset, stylesheets, CSS url() and @import). */
  references: AssetReference[];
  scripts: ScriptReference[];
  /** Every data-* attribute of the file's elements, in document order. */
  dataAttributes: AttributeUse[];
  problems: CompositionProblem[];
}
