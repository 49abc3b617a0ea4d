import { extname } from "node:path";

/** The first bytes of each kind of font file a package ships. */
const SIGNATURES: Record<string, string[]> = {
  ".woff2": ["wOF2"],
  ".woff": ["wOFF"],
  ".ttf": ["\x00\x01\x00\x00", "true"],
  ".otf": ["OTTO", "\x00\x01\x00\x00"],
};

/** Where a WOFF or WOFF2 header holds the file's total length; sfnt files have a table directory instead. */
const WOFF_LENGTH_OFFSET = 8;
const SFNT_TABLES_OFFSET = 12;
const SFNT_TABLE_RECORD = 16;

/** Whether every table an sfnt (TrueType, OpenType) file lists lies inside the file. */
function sfntTablesInside(bytes: Buffer): boolean {
  if (bytes.length < SFNT_TABLES_OFFSET) return false;
  const count = bytes.readUInt16BE(4);
  if (bytes.length < SFNT_TABLES_OFFSET + count * SFNT_TABLE_RECORD) return false;
  for (let index = 0; index < count; index++) {
    const record = SFNT_TABLES_OFFSET + index * SFNT_TABLE_RECORD;
    if (bytes.readUInt32BE(record + 8) + bytes.readUInt32BE(record + 12) > bytes.length) return false;
  }
  return true;
}

/**
 * What is wrong with a font file, judged by its header as the browser would refuse it: not a font
 * of its kind, or cut short (a WOFF's length, an sfnt's tables). Undefined when it looks whole, or
 * is not a font file.
 */
export function fontFileProblem(bytes: Buffer, path: string): string | undefined {
  const extension = extname(path).toLowerCase();
  const signatures = SIGNATURES[extension];
  if (!signatures) return undefined;
  const kind = extension.slice(1).toUpperCase();
  if (!signatures.includes(bytes.toString("latin1", 0, 4)))
    return `is not a ${kind} font (${bytes.length === 0 ? "it is empty" : "its first bytes are not a font's"})`;
  if (extension === ".woff2" || extension === ".woff") {
    const length = bytes.length >= WOFF_LENGTH_OFFSET + 4 ? bytes.readUInt32BE(WOFF_LENGTH_OFFSET) : undefined;
    return length === bytes.length ? undefined : `is a damaged ${kind} font: it is ${bytes.length} bytes, its header says ${length ?? "nothing"}`;
  }
  return sfntTablesInside(bytes) ? undefined : `is a damaged ${kind} font: its tables run past its end`;
}
