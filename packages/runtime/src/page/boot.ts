import type { ComposeApi, ComposeBoot, ComposeBootConfig, CompositionInfo, MediaPlan } from "../api.js";
import { AnimationFrames } from "./animation-frames.js";
import { AwaitedWork } from "./awaited-work.js";
import { installVirtualDateAndPerformance } from "./date-and-performance.js";
import { createTimelineRegistry } from "./gsap-timelines.js";
import { installFrameStyles } from "./frame-styles.js";
import { HistoryWatch } from "./history-watch.js";
import { takeInheritance } from "./inheritance.js";
import { childFrameErrors, collectPageErrors } from "./page-errors.js";
import { childFrameLoadFailures, collectLoadFailures } from "./load-failures.js";
import { watchGraphicsApis } from "./graphics-apis.js";
import { describeMedia, GainLog, mediaGains, prepareMedia } from "./media.js";
import { compositionReady, describeComposition } from "./readiness.js";
import { DEFAULT_SEED, installSeededRandom } from "./seeded-random.js";
import { Seeker } from "./seek.js";
import { remountInstance, setInstanceValues } from "./sub-compositions.js";
import { describeTimeline } from "./timeline.js";
import { VirtualTimers } from "./timers.js";
import { createVariableReader } from "./variables.js";
import { VirtualClock } from "./virtual-clock.js";
import { VolumeWatch } from "./volume-watch.js";
import { WebAnimationSync } from "./web-animations.js";

declare global {
  interface Window {
    __compose?: ComposeApi;
    __composeBoot?: ComposeBoot;
  }
}

/**
 * Installs the runtime in this frame. It must run before the page's scripts, which is why the
 * renderer injects the bundle and this call together with evaluateOnNewDocument.
 */
function boot(config: ComposeBootConfig = {}): ComposeApi {
  if (window.__compose) throw new Error("the compose runtime is already installed in this frame");
  const errors = collectPageErrors();
  const loadFailures = collectLoadFailures();
  watchGraphicsApis();
  installFrameStyles();
  takeInheritance();
  setInstanceValues(config.instances);
  const clock = new VirtualClock();
  installVirtualDateAndPerformance(clock);
  installSeededRandom(config.seed ?? DEFAULT_SEED);
  const timers = new VirtualTimers(clock);
  timers.install();
  const frames = new AnimationFrames();
  frames.install();
  const animations = new WebAnimationSync(clock);
  animations.install();
  createTimelineRegistry();
  const volumes = new VolumeWatch();
  volumes.install();

  const history = new HistoryWatch(frames);
  const work = new AwaitedWork();
  const gains = new GainLog();
  const seeker = new Seeker(timers, frames, animations, history, work, gains);
  let readiness: Promise<CompositionInfo> | undefined;
  const api: ComposeApi = Object.freeze({
    getVariables: createVariableReader(config.variables),
    seek: (t: number) => seeker.seek(t),
    onSeek: (fn: (t: number) => void | Promise<void>) => seeker.onSeek(fn),
    waitFor: <T>(promise: PromiseLike<T>, label?: string) => work.waitFor(promise, label),
    ready: () =>
      (readiness ??= compositionReady(timers, history, work).then((info) => {
        volumes.ready();
        return info;
      })),
    describeMedia,
    describeTimeline,
    mediaGains,
    gainLog: () => gains.samples,
    prepareMedia: (plans: readonly MediaPlan[]) => prepareMedia(plans, () => describeComposition(history)),
    remountInstance: async (id: string, values: Record<string, unknown>) => {
      await remountInstance(id, values);
      history.check();
      return describeComposition(history);
    },
    get changed() {
      return seeker.changed;
    },
    get needsHistory() {
      return history.needed;
    },
    get volumesMayChange() {
      return volumes.mayChange(seeker.hasHandlers);
    },
    get waiting() {
      return work.waiting;
    },
    get pendingSeekHandlers() {
      return seeker.pendingHandlers;
    },
    get errors() {
      return [...errors, ...childFrameErrors()];
    },
    get loadFailures() {
      return [...loadFailures, ...childFrameLoadFailures()];
    },
  });
  Object.defineProperty(window, "__compose", { value: api, enumerable: true });
  return api;
}

// Injecting the bundle twice into one frame must not install a second boot.
if (!window.__composeBoot) Object.defineProperty(window, "__composeBoot", { value: boot });
