/** Seed used when the renderer passes none: any fixed value keeps renders reproducible. */
export const DEFAULT_SEED = 0x5eed;

/** mulberry32: a small, fast generator of 32-bit values from a 32-bit state. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 15), z | 1);
    z ^= z + Math.imul(z ^ (z >>> 7), z | 61);
    return (z ^ (z >>> 14)) >>> 0;
  };
}

/**
 * Makes every random source a page script can reach repeat from render to render: Math.random,
 * crypto.getRandomValues and crypto.randomUUID, from one generator seeded by `seed` (its integer
 * part modulo 2^32). Nothing here is for secrets: a composition has none.
 */
export function installSeededRandom(seed: number): void {
  const next = mulberry32(seed);
  Math.random = () => next() / 4294967296;
  const fill = <T extends ArrayBufferView | null>(array: T): T => {
    if (array) {
      const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
      for (let i = 0; i < bytes.length; i++) bytes[i] = next() & 0xff;
    }
    return array;
  };
  Object.defineProperty(crypto, "getRandomValues", { value: fill, configurable: true, writable: true });
  Object.defineProperty(crypto, "randomUUID", {
    value: () => {
      const bytes = fill(new Uint8Array(16));
      // RFC 4122 version 4 and variant bits, as the browser's own randomUUID sets them.
      bytes[6] = (bytes[6]! & 0x0f) | 0x40;
      bytes[8] = (bytes[8]! & 0x3f) | 0x80;
      const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    },
    configurable: true,
    writable: true,
  });
}
