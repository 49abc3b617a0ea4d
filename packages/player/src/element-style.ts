/** The element's shadow styles: the composition letterboxed in the element's box, the controls under it. */
export const ELEMENT_STYLE = `
:host {
  display: flex;
  flex-direction: column;
  position: relative;
  overflow: hidden;
  background: #000;
  color: #fff;
  font: 13px/1.4 system-ui, sans-serif;
}
:host([hidden]) { display: none; }
:host(:focus-visible) { outline: 2px solid #4f8cff; outline-offset: 2px; }
.viewport {
  flex: 1 1 auto;
  min-height: 0;
  aspect-ratio: var(--compose-aspect, 16 / 9);
  display: flex;
  align-items: center;
  justify-content: center;
  overflow: hidden;
}
.stage { position: relative; overflow: hidden; flex: none; }
/* What render gives a page without a background (mp4): Chromium's white. */
.frames { position: absolute; left: 0; top: 0; transform-origin: 0 0; background: #fff; }
.frames iframe { position: absolute; left: 0; top: 0; border: 0; display: block; }
.controls { display: flex; align-items: center; gap: 8px; padding: 6px 10px; background: #111; flex: none; }
.controls[hidden] { display: none; }
.controls button { font: inherit; color: inherit; background: #333; border: 0; border-radius: 4px; padding: 3px 10px; min-width: 56px; cursor: pointer; }
.controls input { flex: 1; min-width: 60px; accent-color: #4f8cff; }
.controls output { font-variant-numeric: tabular-nums; white-space: nowrap; }
`;
