import { rootSizeMismatchMessage } from "@compose/core";
import type { CompositionInfo } from "@compose/runtime";
import type { LoadedComposition } from "./read-composition.js";
import type { RenderEvent } from "../common/render-events.js";

/** The composition element laid out at another size than data-width / data-height: frames crop or pad it. */
export function warnOnRootSize(composition: LoadedComposition, info: CompositionInfo, emit: (event: RenderEvent) => void): void {
  const { box } = info;
  if (box.hidden || (box.width === info.width && box.height === info.height)) return;
  emit({
    type: "warning",
    code: "root-size-mismatch",
    message: rootSizeMismatchMessage(composition.id, { width: info.width, height: info.height }, box),
  });
}
