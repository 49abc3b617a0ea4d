import type { PageError } from "../api.js";

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
      source: event.filename,
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

function stackOf(error: unknown): { stack?: string } {
  return error instanceof Error && error.stack ? { stack: error.stack } : {};
}
