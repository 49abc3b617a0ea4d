import { findCompositionRoot } from "./composition-root.js";
import { eachInstance } from "./sub-compositions.js";

interface GsapChild {
  paused(): boolean;
  duration(): number;
}

type GsapWindow = Window & {
  __timelines?: Record<string, unknown>;
  gsap?: { globalTimeline?: { getChildren?(nested: boolean, tweens: boolean, timelines: boolean): GsapChild[] } };
};

/** The window property that holds `value`, if a script stored it on window (var, or window.x = ...). */
function holderOf(value: unknown): string | undefined {
  for (const key of Object.keys(window)) {
    try {
      if ((window as unknown as Record<string, unknown>)[key] === value) return key;
    } catch {
      // A property whose getter throws is not the one.
    }
  }
  return undefined;
}

/**
 * Animation this composition defines that seeking never drives: a paused GSAP timeline or tween
 * that is not registered in window.__timelines (registered under another name, or not at all).
 * Said in words with the fix, for a render in which no frame changed; undefined when there is none.
 */
export function idleAnimation(): string | undefined {
  const page = window as GsapWindow;
  const registered = new Set(Object.values(page.__timelines ?? {}));
  const idle = (page.gsap?.globalTimeline?.getChildren?.(false, true, true) ?? []).find(
    (child) => child.paused() && child.duration() > 0 && !registered.has(child),
  );
  if (idle) {
    const id = findCompositionRoot()?.getAttribute("data-composition-id") ?? "";
    const holder = holderOf(idle);
    const what = holder ? `window.${holder} is a paused GSAP animation that` : "a paused GSAP animation";
    return `${what} is not registered in window.__timelines, so nothing drives it: add window.__timelines[${JSON.stringify(id)}] = ${holder ?? "yourTimeline"} after building it`;
  }
  return eachInstance(
    (instance) => instance.info.idleAnimation && `in sub-composition "${instance.host.getAttribute("data-composition-id")}", ${instance.info.idleAnimation}`,
  ).find(Boolean);
}
