/**
 * A script for every document, run before any of its own (and before the project's fonts): it
 * notes the source each script-made FontFace was given, which the face itself does not tell, so
 * that a frame's paint fingerprint (paint-fingerprint.ts) sees a font a row loads from its own
 * URL. The constructor stays the same to scripts (`instanceof`, its prototype, its name).
 */
export const FONT_SOURCES_SCRIPT = `(() => {
  const sources = new WeakMap();
  Object.defineProperty(window, "__composeFontSources", { value: sources });
  window.FontFace = new Proxy(window.FontFace, {
    construct(target, args, newTarget) {
      const face = Reflect.construct(target, args, newTarget);
      sources.set(face, typeof args[1] === "string" ? args[1] : null);
      return face;
    },
  });
})();`;
