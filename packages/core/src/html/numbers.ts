const DECIMAL = /^\s*(?:\d+(?:\.\d*)?|\.\d+)\s*$/;
const WHOLE = /^\s*\d+\s*$/;

/** A plain decimal such as "3" or "2.5"; no sign, unit or exponent. */
export function parseDecimal(text: string): number | undefined {
  return DECIMAL.test(text) ? Number(text) : undefined;
}

export function parseWholeNumber(text: string): number | undefined {
  return WHOLE.test(text) ? Number(text) : undefined;
}
