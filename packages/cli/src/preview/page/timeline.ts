// The timeline panel: one lane per track, clips to scale, instances that unfold, a playhead;
// click or drag to seek.
import { app } from "./app-state.js";
import type { AnimationSegment } from "./animations.js";
import { $, $input, element, onShortcut } from "./dom.js";
import { player, setPlaying } from "./player.js";
import { describeEntry, entryLabel, rulerTicks, timelineLanes, type LaneItem } from "./timeline-layout.js";
import { waveformCanvas } from "./waveform.js";

/** Width of the lane labels, in CSS pixels (the stylesheet reads it as --label-width). */
const LABEL_WIDTH = 140;

/** What the timeline shows of its own: the composition's timed elements and animations are the store's. */
const timeline = {
  /** Keys of the instances shown with their own lanes. */
  expanded: new Set<string>(),
  /** Pixels per second as last drawn. */
  scale: 1,
};

/** A lane per animated element: its segments, each with what moves and when. */
function animationLanes(segments: readonly AnimationSegment[], scale: number): Map<string, HTMLElement> {
  const byTarget = new Map<string, AnimationSegment[]>();
  for (const segment of segments) byTarget.set(segment.target, [...(byTarget.get(segment.target) ?? []), segment]);
  const lanes = new Map<string, HTMLElement>();
  for (const [target, own] of byTarget) {
    const track = element(
      "div",
      { class: "lane-track" },
      ...own.map((segment) => {
        const title = `${target} (${segment.kind === "gsap" ? "GSAP tween" : "CSS animation"}), start ${segment.start.toFixed(3)} s, duration ${segment.duration.toFixed(3)} s`;
        const bar = element("div", { class: "tween", "data-kind": segment.kind, "data-target": target, title });
        bar.style.left = `${segment.start * scale}px`;
        bar.style.width = `${Math.max(2, segment.duration * scale)}px`;
        return bar;
      }),
    );
    const row = element("div", { class: "lane animation-lane nested", "data-target": target });
    row.append(element("div", { class: "lane-label", title: `${target} › animation` }, `${target} › animation`), track);
    lanes.set(target, row);
  }
  return lanes;
}

function sourcePath(src: string): string {
  try {
    const url = new URL(src);
    return url.origin === location.origin ? decodeURIComponent(url.pathname) : src;
  } catch {
    return src;
  }
}

/** Pixels per second: the whole composition fits the panel at zoom 0; each zoom step doubles. */
function timelineScale(): number {
  const available = $("timeline-scroll").clientWidth - LABEL_WIDTH - 32;
  const fit = Math.max(8, available / Math.max(player.duration ?? 1, 1 / player.fps));
  return fit * 2 ** Number($input("zoom").value);
}

function drawRuler(duration: number, scale: number): void {
  $("ruler").replaceChildren(
    ...rulerTicks(duration, scale).map(({ seconds, left }) => {
      const tick = element("span", {}, `${seconds} s`);
      tick.style.left = `${left}px`;
      return tick;
    }),
  );
}

function clipElement({ entry, key }: LaneItem, duration: number, scale: number): HTMLElement {
  const start = entry.start ?? 0;
  const length = entry.duration ?? Math.max(0, duration - start);
  const clip = element("div", {
    class: "clip",
    "data-kind": entry.kind,
    "data-key": key,
    "data-label": entryLabel(entry),
    title: describeEntry(entry, sourcePath),
  });
  clip.classList.toggle("open-ended", entry.duration === undefined);
  clip.style.left = `${start * scale}px`;
  clip.style.width = `${length * scale}px`;
  if (entry.children) {
    const open = timeline.expanded.has(key);
    const toggle = element(
      "button",
      { type: "button", class: "expand", "aria-expanded": String(open), "aria-label": `${open ? "Collapse" : "Expand"} ${entryLabel(entry)}` },
      open ? "▾" : "▸",
    );
    toggle.addEventListener("click", () => {
      if (open) timeline.expanded.delete(key);
      else timeline.expanded.add(key);
      drawTimeline();
    });
    clip.append(toggle);
  }
  const media =
    entry.kind === "audio" || entry.kind === "video"
      ? player.media.find((item) => item.kind === entry.kind && item.src === entry.src && item.start === entry.start && item.audible)
      : undefined;
  if (media) {
    clip.append(waveformCanvas(media, length * scale, length));
    clip.dataset.mediaKey = media.key;
    clip.dataset.playing = "false";
    const mute = element(
      "button",
      { type: "button", class: "mute", "aria-pressed": String(player.isSoundMuted(media.key)), "aria-label": `Mute ${entryLabel(entry)} here` },
      player.isSoundMuted(media.key) ? "🔇" : "🔊",
    );
    mute.addEventListener("click", () => {
      player.setSoundMuted(media.key, !player.isSoundMuted(media.key));
      drawTimeline();
    });
    clip.append(mute);
  }
  clip.append(entryLabel(entry));
  return clip;
}

function drawTimeline(): void {
  // Redrawing replaces the clips: an expander that had the focus keeps it.
  const focusedKey = (document.activeElement?.closest(".clip") as HTMLElement | null | undefined)?.dataset.key;
  const duration = player.duration ?? 0;
  const scale = timelineScale();
  timeline.scale = scale;
  $("timeline").style.setProperty("--label-width", `${LABEL_WIDTH}px`);
  $("timeline").style.width = `${LABEL_WIDTH + duration * scale + 8}px`;
  drawRuler(duration, scale);
  const { entries, animations: segments } = app.get().timeline;
  const animations = animationLanes(segments, scale);
  const targetOf = new Map(segments.map((segment) => [segment.targetId, segment.target]));
  $("lanes").replaceChildren(
    ...timelineLanes(entries, timeline.expanded).flatMap((lane) => {
      const track = element("div", { class: "lane-track" }, ...lane.items.map((item) => clipElement(item, duration, scale)));
      const row = element("div", { class: `lane${lane.depth > 0 ? " nested" : ""}`, "data-track": lane.track === Infinity ? "" : lane.track });
      row.append(element("div", { class: "lane-label", title: lane.label }, lane.label), track);
      // Under the lane of the element they move.
      const moved = lane.items.flatMap(({ entry }) => {
        const target = targetOf.get(entry.label);
        const animation = target === undefined ? undefined : animations.get(target);
        if (animation) animations.delete(target!);
        return animation ? [animation] : [];
      });
      return [row, ...moved];
    }),
    ...animations.values(),
  );
  if (focusedKey !== undefined) document.querySelector<HTMLElement>(`.clip[data-key="${CSS.escape(focusedKey)}"] .expand`)?.focus();
  movePlayhead();
}

function movePlayhead(): void {
  const { target } = player;
  $("playhead").style.left = `${LABEL_WIDTH + player.frameTime(target) * timeline.scale}px`;
  $("timeline").setAttribute("aria-valuemax", String(player.totalFrames - 1));
  $("timeline").setAttribute("aria-valuenow", String(target));
  $("timeline").setAttribute("aria-valuetext", `frame ${target}, ${player.frameTime(target).toFixed(3)} s`);
}

/** Marks the timeline clip of each sound with whether it is playing now. */
function showPlaying(): void {
  for (const clip of document.querySelectorAll<HTMLElement>(".clip[data-media-key]")) clip.dataset.playing = String(player.heard.has(clip.dataset.mediaKey!));
}

/** The frame under a pointer on the timeline. */
function frameAt(clientX: number): number {
  const x = clientX - $("timeline").getBoundingClientRect().left - LABEL_WIDTH;
  return Math.round((Math.max(0, x) / timeline.scale) * player.fps);
}

function zoomBy(steps: number): void {
  const zoom = $input("zoom");
  zoom.value = String(Math.max(Number(zoom.min), Math.min(Number(zoom.max), Number(zoom.value) + steps)));
  drawTimeline();
}

/** Draws the timeline of each page shown, at the player's timing, its playhead at the frame asked for; unfolds nothing of another composition. */
export function bindTimeline(): void {
  app.subscribe((state) => state.timeline, drawTimeline);
  app.subscribe(
    (state) => state.project?.entry.url,
    () => {
      timeline.expanded.clear();
      drawTimeline();
    },
  );
  player.addEventListener("timing", drawTimeline);
  player.addEventListener("target", movePlayhead);
  player.addEventListener("sounds", showPlaying);
  const area = $("timeline");
  area.addEventListener("pointerdown", (event) => {
    if (event.button !== 0 || (event.target as Element).closest("button")) return;
    setPlaying(false);
    area.setPointerCapture(event.pointerId);
    player.seek(frameAt(event.clientX));
  });
  area.addEventListener("pointermove", (event) => {
    if (area.hasPointerCapture(event.pointerId)) player.seek(frameAt(event.clientX));
  });
  area.addEventListener("mouseover", (event) => {
    const clip = (event.target as Element).closest?.(".clip");
    $("timeline-hover").textContent = clip ? clip.getAttribute("title") : "";
  });
  $("zoom").addEventListener("input", drawTimeline);
  $("zoom-in").addEventListener("click", () => zoomBy(1));
  $("zoom-out").addEventListener("click", () => zoomBy(-1));
  onShortcut((event) => {
    if (event.key === "+" || event.key === "=") zoomBy(1);
    else if (event.key === "-") zoomBy(-1);
    else return false;
    return true;
  });
  new ResizeObserver(drawTimeline).observe($("timeline-scroll"));
}
