export interface LineColumn {
  /** 1-based. */
  line: number;
  /** 1-based, in UTF-16 code units like editors and parse5. */
  column: number;
}

/**
 * Maps text offsets to line and column. The line starts are found once, so locating many findings in
 * a large file stays linear overall instead of rescanning the text for each one.
 */
export function createLineIndex(text: string): (offset: number) => LineColumn {
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // CRLF counts as one break; a lone CR is a break too, as in the HTML parser.
    if (code === 0x0a || (code === 0x0d && text.charCodeAt(i + 1) !== 0x0a)) lineStarts.push(i + 1);
  }
  return (offset) => {
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((lineStarts[middle] ?? 0) <= offset) low = middle;
      else high = middle - 1;
    }
    return { line: low + 1, column: offset - (lineStarts[low] ?? 0) + 1 };
  };
}
