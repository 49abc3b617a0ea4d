// The compose preview page, bundled from these modules into the one script index.html loads.
//
// The composition runs in an iframe whose HTML the server sends with the page runtime as its first
// script (the same bundle and boot call render injects), booted with the variables chosen here.
import { errorText } from "@compose/player/core";
import { $, $input, $select } from "./dom.js";
import { setStatus, showFrameErrors } from "./findings.js";
import { bindProject, listenForChanges, refresh, showProject } from "./project.js";
import { bindRenderPanel, updateCommand } from "./render-panel.js";
import { bindTimeline, zoomBy } from "./timeline.js";
import { buildVariablesPanel, resetValues, scheduleApply } from "./variables-panel.js";
import { bindViewer, fitStage, player, seekTo, setPlaying } from "./viewer.js";

function bindTransport(): void {
  $("play").addEventListener("click", () => setPlaying(!player.playing));
  $("prev-frame").addEventListener("click", () => {
    setPlaying(false);
    seekTo(player.target - 1);
  });
  $("next-frame").addEventListener("click", () => {
    setPlaying(false);
    seekTo(player.target + 1);
  });
  $("scrubber").addEventListener("input", () => {
    setPlaying(false);
    seekTo(Number($input("scrubber").value));
  });
  $("fps").addEventListener("change", () => {
    // Keeps the time, not the frame number; a composition with history or video frames loads again at the new rate.
    player.setFps(Number($select("fps").value));
    updateCommand();
  });
  new ResizeObserver(fitStage).observe($("viewport"));
}

function bindVariables(): void {
  $("reset-variables").addEventListener("click", () => {
    resetValues();
    buildVariablesPanel();
    updateCommand();
    scheduleApply();
  });
  $("variables").addEventListener("submit", (event) => event.preventDefault());
  $("instance-variables").addEventListener("submit", (event) => event.preventDefault());
}

/** Keys act when the focus is not in a text field, a list or a button. */
function bindKeyboard(): void {
  document.addEventListener("keydown", (event) => {
    const target = event.target;
    const typing = target instanceof HTMLElement && target.closest("input, select, textarea, button") !== null;
    if (typing || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === " ") setPlaying(!player.playing);
    else if (event.key === "ArrowLeft") seekTo(player.target - (event.shiftKey ? player.fps : 1));
    else if (event.key === "ArrowRight") seekTo(player.target + (event.shiftKey ? player.fps : 1));
    else if (event.key === "Home") seekTo(0);
    else if (event.key === "End") seekTo(player.totalFrames - 1);
    else if (event.key === "+" || event.key === "=") zoomBy(1);
    else if (event.key === "-") zoomBy(-1);
    else return;
    event.preventDefault();
  });
}

async function start(): Promise<void> {
  // The runtime of every composition frame announces each load failure it finds, even one after
  // the frame was shown (a background image, a late fetch), on every window above it.
  window.addEventListener("compose:loadfailure", () => showFrameErrors());
  bindViewer();
  bindTransport();
  bindVariables();
  bindKeyboard();
  bindTimeline();
  bindRenderPanel();
  bindProject();
  try {
    await refresh();
  } catch (error) {
    setStatus(errorText(error), true);
    return;
  }
  listenForChanges();
  showProject();
}

void start();
