/** A size in pixels. */
export interface PixelSize {
  width: number;
  height: number;
}

/** How far from a whole number a product of a size and a scale may be and still be that number (floating point). */
const WHOLE = 1e-6;

/** `size` (CSS pixels) drawn at `scale` device pixels per CSS pixel; undefined unless both sides come out whole. */
export function scaledSize(size: PixelSize, scale: number): PixelSize | undefined {
  const width = size.width * scale;
  const height = size.height * scale;
  if (Math.abs(width - Math.round(width)) > WHOLE || Math.abs(height - Math.round(height)) > WHOLE) return undefined;
  return { width: Math.round(width), height: Math.round(height) };
}
