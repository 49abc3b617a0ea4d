// Puts the page runtime into a composition's HTML text as its first script: what the preview's
// server does to every HTML file it serves, and what the player and the runtime do to a document
// they write into a frame themselves. No parser: it runs in browsers too.

const SPACE = /[\t\n\f\r ]/;

/** The offset just past the `>` that ends the tag starting at `start`, quoted attribute values skipped; -1 when it never ends. */
function tagEnd(html: string, start: number): number {
  for (let i = start + 1; i < html.length; i++) {
    const char = html[i];
    if (char === ">") return i + 1;
    if (char !== "=") continue;
    let value = i + 1;
    while (value < html.length && SPACE.test(html[value]!)) value++;
    const quote = html[value];
    if (quote !== '"' && quote !== "'") continue;
    const close = html.indexOf(quote, value + 1);
    if (close < 0) return -1;
    i = close;
  }
  return -1;
}

function startsTag(html: string, at: number, name: string): boolean {
  return html.slice(at + 1, at + 1 + name.length).toLowerCase() === name && /^[\t\n\f\r />]$/.test(html[at + 1 + name.length] ?? "");
}

/**
 * Where a script must go to be the first one of the document: right after the `<head>` start tag;
 * without one, after `<html>`; without that, after the doctype; else at the very beginning. In
 * each case the HTML parser puts it first into <head>, before any of the page's own scripts. Read
 * as the parser reads the start of a document: comments, the doctype, `<html>` and `<head>` may
 * come first; anything else (text, another element) opens the head implicitly.
 */
export function headScriptOffset(html: string): number {
  let offset = 0;
  let i = 0;
  while (i < html.length) {
    if (SPACE.test(html[i]!)) {
      i++;
      continue;
    }
    if (html.startsWith("<!--", i)) {
      const close = html.indexOf("-->", i + 4);
      if (close < 0) return offset;
      i = close + 3;
      continue;
    }
    if (html.startsWith("<!", i) || html.startsWith("<?", i)) {
      // The doctype, or what the parser reads as a bogus comment: both end at the next `>`.
      const close = html.indexOf(">", i);
      if (close < 0) return offset;
      if (/^<!doctype/i.test(html.slice(i, i + 9))) offset = close + 1;
      i = close + 1;
      continue;
    }
    if (startsTag(html, i, "html")) {
      const end = tagEnd(html, i);
      if (end < 0) return offset;
      offset = i = end;
      continue;
    }
    if (startsTag(html, i, "head")) {
      const end = tagEnd(html, i);
      return end < 0 ? offset : end;
    }
    return offset;
  }
  return offset;
}

/** The HTML with `markup` (a script element) inserted as the first script of its head; a byte order mark is dropped. */
export function injectFirstScript(html: string, markup: string): string {
  const text = html.startsWith("\uFEFF") ? html.slice(1) : html;
  const offset = headScriptOffset(text);
  return text.slice(0, offset) + markup + text.slice(offset);
}

/** The call that boots the runtime bundle with `config` (its ComposeBootConfig), safe inside an HTML <script> element too. */
export function runtimeBootCall(config: object): string {
  return `;window.__composeBoot(${JSON.stringify(config).replaceAll("<", "\\u003c")});`;
}

function attribute(value: string): string {
  return value.replaceAll("&", "&amp;").replaceAll('"', "&quot;");
}

/**
 * Marks a script element that every frame gets from whoever serves it (the runtime, the preview's
 * fonts), not one of the page's own: a sub-composition instance does not inherit it as a library.
 */
export const FRAME_SCRIPT_ATTRIBUTE = "data-compose-frame";

/** The runtime's script elements: its bundle, then its boot call with `config`, as every frame of a page needs them first. */
export function runtimeScripts(runtimeUrl: string, config: object): string {
  return `<script src="${attribute(runtimeUrl)}" ${FRAME_SCRIPT_ATTRIBUTE}></script><script>${runtimeBootCall(config)}</script>`;
}

/**
 * A composition file's HTML as a frame is given it when no server put the runtime into it (a
 * player's frame, an instance inside one, both `srcdoc`): its URL as its base, so that everything
 * it names resolves as it would at that URL, then the runtime's scripts, before the page's own.
 */
export function writtenDocument(html: string, url: string, runtimeUrl: string, config: object): string {
  return injectFirstScript(html, `<base href="${attribute(url)}">${runtimeScripts(runtimeUrl, config)}`);
}
