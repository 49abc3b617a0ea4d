/** Memory sizes as --max-memory takes them and messages show them, in binary units (1G is 1 GiB). */
const UNITS = { K: 1024, M: 1024 ** 2, G: 1024 ** 3, T: 1024 ** 4 } as const;

/** The least --max-memory: a browser holds about 100 MB with an empty page. */
export const MIN_MEMORY = 256 * UNITS.M;

/** A size as --max-memory takes it: a number and a binary unit, `2G`, `1.5G`, `512M` (`512MiB`, `512MB` alike); undefined when it is not one. */
export function parseMemorySize(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)\s*([KMGT])(?:i?B)?$/i.exec(text.trim());
  return match ? Math.round(Number(match[1]) * UNITS[match[2]!.toUpperCase() as keyof typeof UNITS]) : undefined;
}

/** A size in the largest unit that keeps it whole enough: `2G`, `1.5G`, `512M`. */
export function formatMemorySize(bytes: number): string {
  const [unit, size] = (["T", "G", "M", "K"] as const).map((name) => [name, bytes / UNITS[name]] as const).find(([, value]) => value >= 1) ?? ["", bytes];
  return `${Number(size.toFixed(2))}${unit}`;
}
