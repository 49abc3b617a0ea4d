// The composition at its own size, scaled by a transform to fit the box it is shown in.

export interface StageParts {
  /** The box to fit in; its padding is left free. */
  viewport: HTMLElement;
  /** The scaled composition's box, centred in the viewport by its layout (position: relative). */
  stage: HTMLElement;
  /** The composition's frames at their own size, scaled by a transform from their top left corner. */
  frames: HTMLElement;
}

/**
 * Scales the composition to fit the viewport, keeping its aspect (the rest of the box is left
 * empty, letterboxed): never above its own size unless `grow`. Returns the scale.
 */
export function scaleToFit({ viewport, stage, frames }: StageParts, size: { width: number; height: number }, grow: boolean): number {
  const style = getComputedStyle(viewport);
  const availableWidth = viewport.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const availableHeight = viewport.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
  const fit = Math.min(availableWidth / size.width, availableHeight / size.height);
  const scale = Math.max(0.05, grow ? fit : Math.min(1, fit));
  stage.style.width = `${size.width * scale}px`;
  stage.style.height = `${size.height * scale}px`;
  frames.style.width = `${size.width}px`;
  frames.style.height = `${size.height}px`;
  frames.style.transform = `scale(${scale})`;
  snapToDevicePixels(stage);
  return scale;
}

/**
 * Moves the stage onto whole device pixels: centring can leave it half a pixel off, and a
 * composition drawn at a fractional offset is resampled, so it would not match the render.
 */
function snapToDevicePixels(stage: HTMLElement): void {
  stage.style.left = stage.style.top = "";
  const box = stage.getBoundingClientRect();
  const snap = (value: number) => (Math.round(value * devicePixelRatio) - value * devicePixelRatio) / devicePixelRatio;
  stage.style.left = `${snap(box.left)}px`;
  stage.style.top = `${snap(box.top)}px`;
}
