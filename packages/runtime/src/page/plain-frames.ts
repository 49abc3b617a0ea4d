import type { ComposeApi } from "../api.js";

type RuntimeWindow = Window & { __compose?: ComposeApi };

/** This document's own iframes that are not sub-composition instances, with the runtime in them. */
export function plainFrameRuntimes(): ComposeApi[] {
  const runtimes: ComposeApi[] = [];
  for (const frame of document.querySelectorAll("iframe:not([data-compose-instance])")) {
    try {
      const api = ((frame as HTMLIFrameElement).contentWindow as RuntimeWindow | null)?.__compose;
      if (api) runtimes.push(api);
    } catch {
      // A cross-origin frame cannot be reached from here.
    }
  }
  return runtimes;
}

/**
 * A plain iframe is part of its document's picture, so it follows that document's clock: it is
 * seeked to the same time. Resolves to whether any of them changed.
 */
export async function seekPlainFrames(t: number): Promise<boolean> {
  const runtimes = plainFrameRuntimes();
  if (runtimes.length === 0) return false;
  await Promise.all(runtimes.map((api) => api.seek(t)));
  return runtimes.some((api) => api.changed);
}
