/** One composition page: a 320x180 stage unless told otherwise. */
function compositionHtml(id: string, options: { width?: number; duration?: number; css?: string; body?: string; after?: string } = {}): string {
  const width = options.width ?? 320;
  return `<!doctype html>
<html>
<head>
<meta charset="utf-8">
<style>
  * { margin: 0; padding: 0; }
  #stage { position: relative; width: ${width}px; height: 180px; overflow: hidden; background: #204080; }
  ${options.css ?? ""}
</style>
</head>
<body>
<div id="stage" data-composition-id="${id}" data-width="${width}" data-height="180" data-duration="${options.duration ?? 0.5}">${options.body ?? ""}</div>
${options.after ?? ""}
</body>
</html>
`;
}

/** 0.5 s: 15 frames at 30 fps, about a second to render here. */
export const TINY = compositionHtml("tiny", {
  css: `#box { position: absolute; left: 100px; top: 60px; width: 100px; height: 60px; background: #ff0000; }`,
  body: `<div id="box"></div>`,
});

/**
 * Holds its slot until cancelled: the first seek waits on a promise that never settles. Lets a
 * test keep the queue busy for as long as it needs, with no CPU spent and no race with a render.
 */
export const BLOCKER = compositionHtml("blocker", { after: `<script>__compose.onSeek(() => new Promise(() => {}));</script>` });

/** 1 s: a box crossing the stage, so every one of its 30 frames differs from the others. */
export const CROSSING = compositionHtml("crossing", {
  duration: 1,
  css: `#box { position: absolute; left: 0; top: 50px; width: 60px; height: 80px; background: #ff4000; animation: cross 1s linear forwards; }
        @keyframes cross { to { left: 260px; transform: rotate(180deg); } }`,
  body: `<div id="box"></div>`,
});

/** An odd width, which mp4 refuses: the render fails once it has started. */
export const ODD_WIDTH = compositionHtml("odd", { width: 321 });

/** Declares an enum variable, `mood`: "calm" (the default) or "loud". */
export const MOODS = compositionHtml("moods").replace(
  "<html>",
  `<html data-composition-variables='[{"id":"mood","type":"enum","label":"Mood","default":"calm","options":[{"value":"calm","label":"Calm"},{"value":"loud","label":"Loud"}]}]'>`,
);

/** The projects directory the tests use. */
export const PROJECT_FILES: Record<string, string> = {
  "tiny/index.html": TINY,
  "crossing/index.html": CROSSING,
  "blocker.html": BLOCKER,
  "odd/index.html": ODD_WIDTH,
  "moods/index.html": MOODS,
};
