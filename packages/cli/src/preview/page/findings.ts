// The findings panel: lint findings of the project, errors of the frame shown, and the status
// line.
import { plural } from "@compose/core";
import type { LoadFailure } from "@compose/runtime";
import { errorText } from "@compose/player/core";
import { app } from "./app-state.js";
import { $, element } from "./dom.js";
import { player } from "./player.js";

function showLint(): void {
  const { lint, project } = app.get();
  const list = $("lint-findings");
  const error = project?.error ?? lint?.error;
  if (error) {
    $("lint-summary").textContent = error;
    $("lint-summary").className = "error";
    list.replaceChildren();
    return;
  }
  if (!lint) return;
  $("lint-summary").className = lint.errors > 0 ? "error" : lint.warnings > 0 ? "warning" : "";
  $("lint-summary").textContent = `${plural(lint.errors, "error")}, ${plural(lint.warnings, "warning")} in ${plural(lint.files.length, "file")}`;
  list.replaceChildren(
    ...lint.findings.map((finding) => findingItem(finding.severity)({ ...finding, location: `${finding.file}:${finding.line}:${finding.column}` })),
  );
  showFrameFindings();
}

/** What failed to load in the page shown, as its runtime collected it: described again when it changes. */
let loadFailures: readonly LoadFailure[] = [];

function showFrameErrors(): void {
  const failures = player.pageApi?.loadFailures ?? [];
  // A script that did not load leaves what it defines undefined: the errors that follow name it.
  const failedScripts = failures.filter((failure) => failure.type === "script").map((failure) => failure.url);
  const after = failedScripts.length > 0 ? ` (after script ${failedScripts.join(", ")} failed to load)` : "";
  const errors = player.problems.map((problem) => problem.message);
  for (const error of player.pageApi?.errors ?? []) {
    const where = error.source ? ` (${error.source}:${error.line}:${error.column})` : "";
    errors.push(`${error.kind === "unhandledrejection" ? "unhandled rejection" : "error"}: ${error.message}${where}${after}`);
  }
  $("page-errors-title").hidden = errors.length === 0;
  $("page-errors").replaceChildren(...errors.map((message) => element("li", {}, message)));
  if (JSON.stringify(failures) !== JSON.stringify(loadFailures)) {
    loadFailures = failures;
    void describeFailures(failures, app.get().project?.version ?? 0).then(showLoadFailures);
  }
  showFrameFindings();
}

/** A load failure as render words it, with code missing-asset. */
interface DescribedFailure {
  code: "missing-asset";
  message: string;
  location: string;
}

const sources = new Map<string, Promise<string>>();

/** The line of the document that first writes `text`; 0 when it cannot be found. */
async function lineOf(document: string, text: string, version: number): Promise<number> {
  const key = `${version} ${document}`;
  if (!sources.has(key))
    sources.set(
      key,
      fetch(`/${document.split("/").map(encodeURIComponent).join("/")}`).then(
        (response) => (response.ok ? response.text() : ""),
        () => "",
      ),
    );
  const source = await sources.get(key)!;
  const index = source.indexOf(text);
  return index < 0 ? 0 : source.slice(0, index).split("\n").length;
}

/** Why a URL does not load, asked again of the server: its HTTP status, or the browser's error. */
async function reasonOf(url: string): Promise<string> {
  if (url.startsWith("font-family ")) return "the font could not be loaded";
  try {
    const response = await fetch(/^[a-z]+:/i.test(url) ? url : `/${url}`, { method: "HEAD", cache: "no-store" });
    return response.ok ? "it did not decode" : `HTTP ${response.status}`;
  } catch (error) {
    return errorText(error);
  }
}

async function describeFailures(failures: readonly LoadFailure[], version: number): Promise<DescribedFailure[]> {
  return Promise.all(
    failures.map(async (failure) => {
      const [line, reason] = await Promise.all([lineOf(failure.document, failure.written, version), reasonOf(failure.url)]);
      const location = line > 0 ? `${failure.document}:${line}` : failure.document;
      return { code: "missing-asset", message: `${failure.type} ${failure.url} failed to load (${reason}, requested by ${location})`, location };
    }),
  );
}

let described: DescribedFailure[] = [];

function showLoadFailures(failures: DescribedFailure[]): void {
  described = failures;
  $("load-failures-title").hidden = failures.length === 0;
  $("load-failures").replaceChildren(...failures.map(findingItem("error")));
  showFrameFindings();
}

function findingItem(severity: string) {
  return (finding: { code: string; message: string; location: string }) =>
    element(
      "li",
      { class: severity, "data-code": finding.code },
      element("span", { class: "severity" }, severity),
      element("code", {}, finding.code),
      " ",
      finding.message,
      element("span", { class: "location" }, finding.location),
    );
}

/** Under the frame: what failed to load and what lint found, so the cause is in view with what it breaks. */
function showFrameFindings(): void {
  const lint = (app.get().lint?.findings ?? []).map((finding) => ({ ...finding, location: `${finding.file}:${finding.line}:${finding.column}` }));
  $("frame-findings").replaceChildren(...described.map(findingItem("error")), ...lint.map((finding) => findingItem(finding.severity)(finding)));
  $("frame-findings").hidden = described.length === 0 && lint.length === 0;
}

function showStatus({ text, error }: { text: string; error: boolean }): void {
  $("status").textContent = text;
  $("status").classList.toggle("error", error);
}

/** Shows each lint answer and status, and the errors of the frame shown as the player and the page's runtime find them. */
export function bindFindings(): void {
  app.subscribe((state) => state.lint, showLint);
  app.subscribe((state) => state.status, showStatus);
  // The runtime of every composition frame announces each load failure it finds, even one after
  // the frame was shown (a background image, a late fetch), on every window above it.
  window.addEventListener("compose:loadfailure", showFrameErrors);
  let shown: number | undefined;
  player.addEventListener("state", () => {
    // The page's errors may have grown with the frame it showed.
    if (player.shown !== shown) showFrameErrors();
    shown = player.shown;
  });
  player.addEventListener("load", showFrameErrors);
  player.addEventListener("problem", showFrameErrors);
}
