// The findings panel: lint findings of the project and errors of the frame shown.
import { app } from "./app-state.js";
import { $, element } from "./dom.js";

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

export function showLint(): void {
  const lint = app.state?.lint;
  const list = $("lint-findings");
  if (app.state?.error) {
    $("lint-summary").textContent = app.state.error;
    $("lint-summary").className = "error";
    list.replaceChildren();
    return;
  }
  if (!lint) return;
  $("lint-summary").className = lint.errors > 0 ? "error" : lint.warnings > 0 ? "warning" : "";
  $("lint-summary").textContent = `${plural(lint.errors, "error")}, ${plural(lint.warnings, "warning")} in ${plural(lint.files.length, "file")}`;
  list.replaceChildren(
    ...lint.findings.map((finding) =>
      element(
        "li",
        { class: finding.severity, "data-code": finding.code },
        element("span", { class: "severity" }, finding.severity),
        element("code", {}, finding.code),
        " ",
        finding.message,
        element("span", { class: "location" }, `${finding.file}:${finding.line}:${finding.column}`),
      ),
    ),
  );
}

export function showFrameErrors(): void {
  const errors = [...app.frameErrors];
  for (const error of app.api?.errors ?? []) {
    const where = error.source ? ` (${error.source}:${error.line}:${error.column})` : "";
    errors.push(`${error.kind === "unhandledrejection" ? "unhandled rejection" : "error"}: ${error.message}${where}`);
  }
  $("page-errors-title").hidden = errors.length === 0;
  $("page-errors").replaceChildren(...errors.map((message) => element("li", {}, message)));
}

export function setStatus(text: string, isError = false): void {
  $("status").textContent = text;
  $("status").classList.toggle("error", isError);
}
