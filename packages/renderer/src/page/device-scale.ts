/**
 * The smallest device scale factor Chromium draws at: a display's factor is kept at 0.5 or more
 * (--force-device-scale-factor is clamped there). In BeginFrame mode that flag is the one way to
 * draw sharper or smaller: the screenshot HeadlessExperimental.beginFrame returns is the window's
 * surface, which Emulation.setDeviceMetricsOverride's factor leaves at one device pixel per CSS
 * pixel.
 */
export const SMALLEST_DRAWN_SCALE = 0.5;

/**
 * The device scale factor pages are drawn at for an output `scale`: the scale itself, or for a
 * smaller one the smallest Chromium draws at, which the encoder then reduces (4-encode/encoder-args.ts).
 */
export function drawnScale(scale: number): number {
  return Math.max(scale, SMALLEST_DRAWN_SCALE);
}
