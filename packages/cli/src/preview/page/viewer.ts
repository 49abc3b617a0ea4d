// The viewer: the stage the player draws the composition in, fitted to the window, and the
// transport under it (play, frame steps, the scrubber, the fps, loop) with its keys.
import { scaleToFit } from "@compose/player/core";
import { app, compositionSize, setStatus } from "./app-state.js";
import { $, $input, $select, onShortcut } from "./dom.js";
import { player, setPlaying } from "./player.js";

/** Scales the composition's own size down to fit the viewer (never up), keeping its aspect. */
function fitStage(): void {
  const { width, height } = compositionSize(app.get());
  const scale = scaleToFit({ viewport: $("viewport"), stage: $("stage"), frames: $("frames") }, { width, height }, false);
  $("stage").dataset.scale = String(scale);
  $("composition-size").textContent = `${width}x${height} at ${Math.round(scale * 100)}%`;
}

function updateTiming(): void {
  $input("scrubber").max = String(player.totalFrames - 1);
  $("duration").textContent = player.duration === undefined ? "?" : player.duration.toFixed(3);
  $("last-frame").textContent = String(player.totalFrames - 1);
  updateReadout();
}

function updateReadout(): void {
  const frame = player.target;
  $input("scrubber").value = String(frame);
  $("time").textContent = player.frameTime(frame).toFixed(3);
  $("frame").textContent = String(frame);
}

/** Publishes on the stage what the page is doing, for tests and for anyone reading the DOM. */
function updatePending(): void {
  const pending = player.pending || app.get().applying;
  const stage = $("stage");
  stage.dataset.pending = String(pending);
  if (player.shown === undefined) delete stage.dataset.shownFrame;
  else stage.dataset.shownFrame = String(player.shown);
  stage.dataset.shownTime = player.shown === undefined ? "" : String(player.frameTime(player.shown));
  stage.dataset.config = player.loadedConfig ?? "";
}

function showPlay(): void {
  $("play").textContent = player.playing ? "Pause" : "Play";
  $("play").setAttribute("aria-pressed", String(player.playing));
}

/** Each project read: another composition starts over with its own duration; a duration not known yet is the file's. */
function followProject(): void {
  let shownEntry: string | undefined;
  app.subscribe(
    (state) => state.project,
    (project) => {
      if (!project) return;
      if (shownEntry !== undefined && shownEntry !== project.entry.url) player.startOver(project.composition.duration);
      else if (player.duration === undefined) player.setDuration(project.composition.duration);
      shownEntry = project.entry.url;
      fitStage();
    },
  );
}

function bindTransport(): void {
  $("play").addEventListener("click", () => setPlaying(!player.playing));
  $("prev-frame").addEventListener("click", () => {
    setPlaying(false);
    player.seek(player.target - 1);
  });
  $("next-frame").addEventListener("click", () => {
    setPlaying(false);
    player.seek(player.target + 1);
  });
  $("scrubber").addEventListener("input", () => {
    setPlaying(false);
    player.seek(Number($input("scrubber").value));
  });
  // Keeps the time, not the frame number; a composition with history or video frames loads again at the new rate.
  $("fps").addEventListener("change", () => app.update({ fps: Number($select("fps").value) }));
  app.subscribe(
    (state) => state.fps,
    (fps) => player.setFps(fps),
  );
  player.loop = $input("loop").checked;
  $input("loop").addEventListener("change", () => (player.loop = $input("loop").checked));
  onShortcut((event) => {
    if (event.key === " ") setPlaying(!player.playing);
    else if (event.key === "ArrowLeft") player.seek(player.target - (event.shiftKey ? player.fps : 1));
    else if (event.key === "ArrowRight") player.seek(player.target + (event.shiftKey ? player.fps : 1));
    else if (event.key === "Home") player.seek(0);
    else if (event.key === "End") player.seek(player.totalFrames - 1);
    else return false;
    return true;
  });
}

/** Shows what the player does: the frame, the transport, whether work is pending, loading in the status line. */
export function bindViewer(): void {
  player.addEventListener("timing", updateTiming);
  player.addEventListener("target", updateReadout);
  player.addEventListener("state", updatePending);
  app.subscribe((state) => state.applying, updatePending);
  player.addEventListener("loading", () => setStatus("loading…"));
  player.addEventListener("load", () => {
    const [first] = player.problems;
    setStatus(first?.message ?? "", first !== undefined);
  });
  player.addEventListener("play", showPlay);
  player.addEventListener("pause", showPlay);
  followProject();
  new ResizeObserver(fitStage).observe($("viewport"));
  bindTransport();
}
