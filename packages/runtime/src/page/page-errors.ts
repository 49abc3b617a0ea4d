import type { PageError } from "../api.js";
import { documentUrl } from "./document-url.js";

/**
 * Collects uncaught errors and unhandled rejections of the page's scripts, from injection on, so
 * that the renderer can fail a render with the page's own error message.
 */
export function collectPageErrors(): readonly PageError[] {
  const errors: PageError[] = [];
  window.addEventListener("error", (event) => {
    // Failed resources fire plain Events on their element; only script errors are ErrorEvents.
    if (!(event instanceof ErrorEvent)) return;
    errors.push({
      kind: "error",
      message: event.message,
      // An inline script of a written document is named by the document's file, as when it is served.
      source: projectPath(event.filename === location.href ? documentUrl() : event.filename),
      line: event.lineno,
      column: event.colno,
      ...stackOf(event.error),
    });
  });
  window.addEventListener("unhandledrejection", (event) => {
    const reason: unknown = event.reason;
    errors.push({
      kind: "unhandledrejection",
      message: `Uncaught (in promise) ${reason instanceof Error ? `${reason.name}: ${reason.message}` : String(reason)}`,
      source: "",
      line: 0,
      column: 0,
      ...stackOf(reason),
    });
  });
  return errors;
}

/** A script of the project is named by its path in the project, as its author knows it. */
export function projectPath(url: string): string {
  // The file's origin: a written document's location is about:srcdoc, whose origin reads "null".
  const origin = `${new URL(documentUrl()).origin}/`;
  if (!url.startsWith(origin)) return url;
  const path = url.slice(origin.length).split(/[?#]/)[0]!;
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/**
 * The errors of every same-origin frame this one contains (sub-composition instances and plain
 * iframes), each of which runs the runtime and collects its own; their frames' errors included.
 */
export function childFrameErrors(): PageError[] {
  const found: PageError[] = [];
  for (let index = 0; index < window.frames.length; index++) {
    try {
      const child = window.frames[index] as (Window & { __compose?: { errors: readonly PageError[] } }) | undefined;
      // The child's objects come from another realm; copying them keeps the list plain.
      for (const error of child?.__compose?.errors ?? []) found.push({ ...error });
    } catch {
      // Another origin's frame cannot be read.
    }
  }
  return found;
}

function stackOf(error: unknown): { stack?: string } {
  return error instanceof Error && error.stack ? { stack: error.stack } : {};
}
