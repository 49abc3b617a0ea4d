/**
 * The URL of the file a frame's document came from. A document a player wrote into its frame
 * (srcdoc) is at `about:srcdoc`; it carries its file's URL as its base, which the player or the
 * runtime put first into it (see writtenDocument).
 */
export function documentUrl(frame: Window = window): string {
  const href = frame.location.href.split("#")[0]!;
  return href === "about:srcdoc" ? frame.document.baseURI : href;
}

/** Whether this frame's document was written into it rather than loaded from its URL: its instances are written in too. */
export function isWrittenDocument(): boolean {
  return location.href === "about:srcdoc";
}
