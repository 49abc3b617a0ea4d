/** Seed used when the renderer passes none: any fixed value keeps renders reproducible. */
export const DEFAULT_SEED = 0x5eed;

/** Replaces Math.random with mulberry32 seeded by `seed` (its integer part modulo 2^32). */
export function installSeededRandom(seed: number): void {
  let state = seed >>> 0;
  Math.random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 15), z | 1);
    z ^= z + Math.imul(z ^ (z >>> 7), z | 61);
    return ((z ^ (z >>> 14)) >>> 0) / 4294967296;
  };
}
