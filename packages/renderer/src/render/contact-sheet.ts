/**
 * A snapshot's contact sheet: the moments' frames in a grid, each with a label strip under it
 * naming its time and frame, drawn as a page in the render's browser so that the labels are set
 * in the default set's Inter like any composition's text.
 */

/** At most this many frames a row; each frame at most this wide (smaller frames keep their size). */
const SHEET_COLUMNS = 4;
const SHEET_CELL_WIDTH = 480;
/** Pixels around the grid and between its cells, and the height of a label strip. */
const SHEET_GAP = 8;
const SHEET_LABEL_HEIGHT = 28;

export interface SheetLayout {
  columns: number;
  rows: number;
  /** The size each frame is drawn at: its own, or scaled to SHEET_CELL_WIDTH keeping its aspect. */
  cell: { width: number; height: number };
  width: number;
  height: number;
}

/** The grid of `count` frames of `frame` size: up to SHEET_COLUMNS a row. */
export function sheetLayout(count: number, frame: { width: number; height: number }): SheetLayout {
  const columns = Math.min(count, SHEET_COLUMNS);
  const rows = Math.ceil(count / columns);
  const width = Math.min(SHEET_CELL_WIDTH, frame.width);
  const height = Math.max(1, Math.round((width * frame.height) / frame.width));
  return {
    columns,
    rows,
    cell: { width, height },
    width: SHEET_GAP + columns * (width + SHEET_GAP),
    height: SHEET_GAP + rows * (height + SHEET_LABEL_HEIGHT + SHEET_GAP),
  };
}

/**
 * The sheet as a document: the frames (PNG) as data URLs over a checkerboard that shows what
 * they leave transparent, in a CSS grid of `layout`, each above its label.
 */
export function sheetHtml(cells: ReadonlyArray<{ image: Buffer; label: string }>, layout: SheetLayout): string {
  const { cell } = layout;
  const items = cells
    .map(
      ({ image, label }) =>
        `<figure><img src="data:image/png;base64,${image.toString("base64")}" width="${cell.width}" height="${cell.height}" alt=""><figcaption>${label}</figcaption></figure>`,
    )
    .join("\n");
  return `<!doctype html>
<html>
<head>
<meta charset="utf-8">
<style>
  html, body { margin: 0; background: #18181b; }
  main { display: grid; grid-template-columns: repeat(${layout.columns}, ${cell.width}px); gap: ${SHEET_GAP}px; padding: ${SHEET_GAP}px; }
  figure { margin: 0; }
  img { display: block; width: ${cell.width}px; height: ${cell.height}px; background: repeating-conic-gradient(#3f3f46 0% 25%, #52525b 0% 50%) 0 0 / 16px 16px; }
  figcaption { height: ${SHEET_LABEL_HEIGHT}px; padding: 0 8px; overflow: hidden; white-space: nowrap; background: #27272a; color: #f4f4f5; font: 500 14px/${SHEET_LABEL_HEIGHT}px Inter, sans-serif; }
</style>
</head>
<body><main>
${items}
</main></body>
</html>
`;
}
