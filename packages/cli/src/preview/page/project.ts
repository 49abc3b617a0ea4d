// The project as the server sees it: the state of the composition this tab shows, the list to
// pick another from, and reloading when a file changes.
import type { PreviewLint, PreviewState } from "../preview-state.js";
import { errorText } from "@compose/player/core";
import { app, setStatus, withProject } from "./app-state.js";
import { $, $select, element } from "./dom.js";
import { player, requestReload } from "./player.js";
import { answerOf } from "./server-answer.js";

/** GET /__compose/state or /__compose/lint for the composition this tab shows. */
async function fetchProject<T>(name: "state" | "lint"): Promise<T> {
  const { composition } = app.get();
  return answerOf<T>(await fetch(`/__compose/${name}${composition ? `?composition=${encodeURIComponent(composition)}` : ""}`, { cache: "no-store" }));
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
  app.update({ lint });
}

async function refresh(): Promise<void> {
  const project = await fetchProject<PreviewState>("state");
  app.update((state) => withProject(state, project));
  const { id } = project.composition;
  $("composition-name").textContent = `${id ?? "(no composition element)"} — ${project.entry.file}`;
  document.title = `${id ?? project.entry.file} — compose preview`;
  buildCompositionPicker(project);
}

/** The project's compositions, offered when there is more than one or the preview was given a folder without index.html. */
function buildCompositionPicker(project: PreviewState): void {
  const { compositions } = project;
  $("composition-picker").hidden = compositions.length < 2 && !project.pathIsFolder;
  const list = $select("composition-list");
  if (JSON.stringify([...list.options].map((option) => option.value)) !== JSON.stringify(compositions)) {
    list.replaceChildren(...compositions.map((path) => element("option", { value: path }, path)));
  }
  list.value = decodeURIComponent(project.entry.url.slice(1));
}

/** The first frame of the page, then its lint. */
function showProject(): void {
  requestReload();
  void refreshLint();
}

async function refreshAndReload(): Promise<void> {
  try {
    await refresh();
  } catch (error) {
    setStatus(errorText(error), true);
  }
  showProject();
}

/** Shows another composition in this tab only: the choice lives in the tab's URL. */
async function pickComposition(path: string): Promise<void> {
  history.replaceState(null, "", `?composition=${encodeURIComponent(path)}`);
  app.update({ composition: path });
  await refreshAndReload();
}

function listenForChanges(): void {
  new EventSource("/__compose/events").addEventListener("change", (event) => {
    const { files } = JSON.parse((event as MessageEvent<string>).data) as { files: string[] };
    app.update((state) => ({ savedFiles: [...new Set([...state.savedFiles, ...files])] }));
    void refreshAndReload();
  });
}

/** Reads the project for the composition the tab's URL names, shows it, and follows its changes; a project that cannot be read is told in the status line. */
export async function startProject(): Promise<void> {
  app.update({ composition: new URLSearchParams(location.search).get("composition") ?? "" });
  $select("composition-list").addEventListener("change", () => void pickComposition($select("composition-list").value));
  try {
    await refresh();
  } catch (error) {
    setStatus(errorText(error), true);
    return;
  }
  listenForChanges();
  showProject();
}
