import { rootSizeMismatchMessage, type OutputFormat } from "@compose/core";
import type { CompositionInfo } from "@compose/runtime";
import type { SourceComposition } from "./read-composition.js";
import type { RenderEvent } from "@compose/core";

/** The composition element laid out at another size than data-width / data-height: frames crop or pad it. */
export function warnOnRootSize(composition: SourceComposition, info: CompositionInfo, emit: (event: RenderEvent) => void): void {
  const { box } = info;
  if (box.hidden || (box.width === info.width && box.height === info.height)) return;
  emit({
    type: "warning",
    code: "root-size-mismatch",
    message: rootSizeMismatchMessage(composition.id, { width: info.width, height: info.height }, box),
  });
}

/** The page asked for a graphics API the render's browser cannot give: what it draws with it stays blank. */
export function warnOnUnavailableGraphics(info: CompositionInfo, emit: (event: RenderEvent) => void): void {
  for (const what of info.unavailableGraphics) {
    emit({
      type: "warning",
      code: "graphics-unavailable",
      message: `the page asked for ${what}, which the render's browser cannot give: what the page draws with it stays blank; draw with canvas 2D or WebGL instead`,
    });
  }
}

/**
 * A transparent format whose page paints a background: the output will not be transparent. A
 * composition that says it is meant to be opaque (data-opaque) is not warned.
 */
export function warnOnOpaqueBackground(format: OutputFormat, composition: SourceComposition, info: CompositionInfo, emit: (event: RenderEvent) => void): void {
  const painted = info.paintedBackgrounds;
  if (painted.length === 0 || composition.metadata.opaque) return;
  emit({
    type: "warning",
    code: "opaque-background",
    message: `${format} keeps transparency, but ${painted.join(", ")} set${painted.length === 1 ? "s" : ""} a background, so the output will not be transparent`,
  });
}
