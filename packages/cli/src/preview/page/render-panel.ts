// The render panel: render() on the preview server with the page's values, its events streamed
// back; and the matching `compose render` command to copy.
import { plural } from "@compose/core";
import type { JobEvent } from "@compose/producer";
import { errorText } from "@compose/player/core";
import { app, changedPageInstances, changedPageValues, pageRenderCommand } from "./app-state.js";
import { $, $input, $select, element } from "./dom.js";
import { answerOf } from "./server-answer.js";

type PanelState = "running" | "refused" | "finished" | "failed" | "cancelled";

const render: { id: string | undefined; events: EventSource | undefined; state: PanelState | undefined } = {
  id: undefined,
  events: undefined,
  state: undefined,
};

function fillSelect(select: HTMLSelectElement, values: ReadonlyArray<string | number>, chosen: string | number): void {
  if (select.options.length > 0) return;
  select.replaceChildren(...values.map((value) => element("option", { value }, String(value))));
  select.value = String(chosen);
}

function buildRenderPanel(): void {
  const choices = app.get().project?.renderChoices;
  if (!choices) return;
  fillSelect($select("render-format"), choices.formats, choices.defaults.format);
  fillSelect($select("render-quality"), choices.qualities, choices.defaults.quality);
  fillSelect($select("render-fps"), choices.fps, choices.defaults.fps);
  const scale = $input("render-scale");
  if (scale.value === "") scale.value = String(choices.defaults.scale);
}

/** Shows the finished output at `url`: an image format (gif) in the image, the others in the video. */
function showResult(format: string, url: string): void {
  const image = app.get().project?.renderChoices.imageFormats.includes(format) ?? false;
  const video = $<HTMLVideoElement>("render-video");
  const picture = $<HTMLImageElement>("render-image");
  video.hidden = image;
  picture.hidden = !image;
  if (image) {
    video.removeAttribute("src");
    picture.src = url;
  } else {
    picture.removeAttribute("src");
    video.src = url;
  }
}

function renderMessage(kind: string, code: string, message: string): void {
  $("render-messages").append(
    element("li", { class: kind, "data-code": code }, element("span", { class: "severity" }, kind), element("code", {}, code), " ", message),
  );
}

function setRendering(running: boolean): void {
  $<HTMLButtonElement>("render-start").disabled = running;
  $("render-cancel").hidden = !running;
  $("render-panel").dataset.state = running ? "running" : (render.state ?? "idle");
}

/** Numbers (2, 0.5) as numbers, the rest as typed: the server's schema names what is allowed. */
export function optionValue(text: string): string | number {
  return /^-?(\d+\.?\d*|\.\d+)$/.test(text.trim()) ? Number(text) : text.trim();
}

async function startRender(): Promise<void> {
  const state = app.get();
  const { composition } = state;
  const body = {
    format: $select("render-format").value,
    quality: $select("render-quality").value,
    fps: optionValue($select("render-fps").value),
    scale: optionValue($input("render-scale").value),
    workers: optionValue($input("render-workers").value),
    allowMissingAssets: $input("render-allow-missing").checked,
    variables: changedPageValues(state),
    instances: changedPageInstances(state),
    ...(composition ? { composition } : {}),
  };
  $("render-messages").replaceChildren();
  $("render-result").hidden = true;
  $("render-progress").hidden = true;
  render.state = undefined;
  setRendering(true);
  $("render-status").textContent = "starting…";
  let answer: { id: string };
  try {
    answer = await answerOf(await fetch("/__compose/renders", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) }));
  } catch (error) {
    render.state = "refused";
    setRendering(false);
    $("render-status").textContent = errorText(error);
    return;
  }
  render.id = answer.id;
  const events = new EventSource(`/__compose/renders/${answer.id}/events`);
  render.events = events;
  // Each event is named by its type, as the server streams them; every type the preview sends has its handler.
  for (const [type, show] of Object.entries(SHOW_EVENT)) {
    events.addEventListener(type, (message: MessageEvent<string>) => (show as (event: JobEvent) => void)(JSON.parse(message.data) as JobEvent));
  }
}

/** The preview runs its renders at once: they never wait in a queue. */
type PreviewEvent = Exclude<JobEvent, { type: "queued" }>;

const SHOW_EVENT: { [Type in PreviewEvent["type"]]: (event: Extract<PreviewEvent, { type: Type }>) => void } = {
  running: () => {
    $("render-status").textContent = "loading the composition…";
  },
  started: (event) => {
    const progress = $<HTMLProgressElement>("render-progress");
    progress.hidden = false;
    progress.value = 0;
    $("render-status").textContent =
      `rendering ${plural(event.totalFrames, "frame")}, ${event.width}x${event.height} at ${event.fps} fps, ${plural(event.workers, "worker")}`;
  },
  progress: (event) => {
    $<HTMLProgressElement>("render-progress").value = event.percent;
    $("render-status").textContent =
      `${event.stage === "capture" ? "capturing" : "assembling"}: frame ${event.frame} of ${event.totalFrames} (${Math.round(event.percent)}%)`;
  },
  warning: (event) => renderMessage("warning", event.code, event.message),
  finished: (event) => {
    $<HTMLProgressElement>("render-progress").value = 100;
    const megabytes = (event.sizeBytes / 1e6).toFixed(2);
    $("render-status").textContent =
      `finished: ${plural(event.frames, "frame")}, ${event.durationSeconds.toFixed(3)} s, ${megabytes} MB in ${(event.elapsedMs / 1000).toFixed(1)} s`;
    showResult(event.format, `${event.output}?t=${Date.now()}`);
    const link = $<HTMLAnchorElement>("render-link");
    link.href = event.output;
    link.download = event.output.split("/").pop() ?? "";
    link.textContent = `Download ${decodeURIComponent(event.output.slice(1))}`;
    $("render-result").hidden = false;
    endRender("finished");
  },
  failed: (event) => {
    renderMessage("error", event.code, event.message);
    $("render-status").textContent = event.code === "cancelled" ? "cancelled" : "failed";
    endRender(event.code === "cancelled" ? "cancelled" : "failed");
  },
};

function endRender(state: PanelState): void {
  // The stream ends here; an EventSource left open would reconnect and replay it.
  render.events?.close();
  render.events = undefined;
  render.state = state;
  setRendering(false);
}

async function cancelRender(): Promise<void> {
  if (render.id === undefined) return;
  await fetch(`/__compose/renders/${render.id}/cancel`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
}

/** The command of the render panel: the page's, with the panel's own flag. */
function commandText(): string {
  const command = pageRenderCommand(app.get());
  return command && $input("render-allow-missing").checked ? `${command} --allow-missing-assets` : command;
}

function updateCommand(): void {
  $("render-command").textContent = commandText();
}

async function copyCommand(): Promise<void> {
  const text = commandText();
  $("render-command").textContent = text;
  let copied = false;
  try {
    await navigator.clipboard.writeText(text);
    copied = true;
  } catch {
    // No clipboard permission (or an insecure context): select the text and copy the old way.
    const range = document.createRange();
    range.selectNodeContents($("render-command"));
    const selection = getSelection();
    selection?.removeAllRanges();
    selection?.addRange(range);
    copied = document.execCommand("copy");
  }
  $("copy-result").textContent = copied ? "Copied" : "Select the command and copy it";
  setTimeout(() => ($("copy-result").textContent = ""), 2000);
}

/** Fills the choices once the project is read, and keeps the command to copy in step with the values and fps chosen. */
export function bindRenderPanel(): void {
  app.subscribe((state) => state.project?.renderChoices, buildRenderPanel);
  app.subscribe(pageRenderCommand, updateCommand);
  $("render-form").addEventListener("submit", (event) => {
    event.preventDefault();
    void startRender();
  });
  $("render-cancel").addEventListener("click", () => void cancelRender());
  $("render-allow-missing").addEventListener("change", updateCommand);
  $("copy-command").addEventListener("click", () => void copyCommand());
}
