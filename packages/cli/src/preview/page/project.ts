// The project as the server sees it: the state of the composition this tab shows, the list to
// pick another from, and reloading when a file changes.
import type { PreviewLint, PreviewState } from "../preview-state.js";
import { app } from "./app-state.js";
import { errorText } from "@compose/player/core";
import { $, $select, element } from "./dom.js";
import { setStatus, showLint } from "./findings.js";
import { buildRenderPanel, updateCommand } from "./render-panel.js";
import { resetTimeline } from "./timeline.js";
import { answerOf } from "./server-answer.js";
import { adoptDeclarations } from "./values.js";
import { buildVariablesPanel, resetInstanceValues } from "./variables-panel.js";
import { fitStage, player, requestReload } from "./viewer.js";

/** The composition this tab shows, kept in its URL (`?composition=scenes/intro.html`); "" for the one compose preview was given. */
export function chosenComposition(): string {
  return new URLSearchParams(location.search).get("composition") ?? "";
}

/** GET /__compose/state or /__compose/lint for the composition this tab shows. */
async function fetchProject<T>(name: "state" | "lint"): Promise<T> {
  const chosen = chosenComposition();
  return answerOf<T>(await fetch(`/__compose/${name}${chosen ? `?composition=${encodeURIComponent(chosen)}` : ""}`, { cache: "no-store" }));
}

let lintRequests = 0;

/** Lint is asked for once the frame shows, so it never delays it; only the answer to the latest request is shown. */
async function refreshLint(): Promise<void> {
  const request = ++lintRequests;
  await player.whenIdle();
  if (request !== lintRequests) return;
  let lint: PreviewLint;
  try {
    lint = await fetchProject<PreviewLint>("lint");
  } catch (error) {
    lint = { version: 0, errors: 0, warnings: 0, files: [], findings: [], error: errorText(error) };
  }
  if (request !== lintRequests) return;
  app.lint = lint;
  showLint();
}

export async function refresh(): Promise<void> {
  const previous = app.state;
  const state = await fetchProject<PreviewState>("state");
  app.state = state;
  const declarationsChanged = JSON.stringify(previous?.variables) !== JSON.stringify(state.variables);
  const instancesChanged = JSON.stringify(previous?.instances) !== JSON.stringify(state.instances);
  if (declarationsChanged) app.values = adoptDeclarations(state.variables, previous?.variables, app.values);
  if (instancesChanged) resetInstanceValues();
  if (declarationsChanged || instancesChanged) buildVariablesPanel();
  const { id } = state.composition;
  $("composition-name").textContent = `${id ?? "(no composition element)"} — ${state.entry.file}`;
  document.title = `${id ?? state.entry.file} — compose preview`;
  if (previous && previous.entry.url !== state.entry.url) {
    // Another composition: its own duration, timeline and frames.
    resetTimeline();
    player.startOver(state.composition.duration);
  } else if (player.duration === undefined) player.setDuration(state.composition.duration);
  buildCompositionPicker(state);
  fitStage();
  buildRenderPanel();
  updateCommand();
}

/** The project's compositions, offered when there is more than one or the preview was given a folder without index.html. */
function buildCompositionPicker(state: PreviewState): void {
  const { compositions } = state;
  $("composition-picker").hidden = compositions.length < 2 && !state.pathIsFolder;
  const list = $select("composition-list");
  if (JSON.stringify([...list.options].map((option) => option.value)) !== JSON.stringify(compositions)) {
    list.replaceChildren(...compositions.map((path) => element("option", { value: path }, path)));
  }
  list.value = decodeURIComponent(state.entry.url.slice(1));
}

/** Shows another composition in this tab only: the choice lives in the tab's URL. */
async function pickComposition(path: string): Promise<void> {
  history.replaceState(null, "", `?composition=${encodeURIComponent(path)}`);
  await refreshAndReload();
}

async function refreshAndReload(): Promise<void> {
  try {
    await refresh();
  } catch (error) {
    setStatus(errorText(error), true);
  }
  showProject();
}

export function bindProject(): void {
  $select("composition-list").addEventListener("change", () => void pickComposition($select("composition-list").value));
}

/** The first frame of the page, then its lint. */
export function showProject(): void {
  requestReload();
  void refreshLint();
}

export function listenForChanges(): void {
  new EventSource("/__compose/events").addEventListener("change", (event) => {
    for (const file of (JSON.parse((event as MessageEvent<string>).data) as { files: string[] }).files) app.savedFiles.add(file);
    void refreshAndReload();
  });
}
