/** `1 frame`, `2 frames`, `14,990 frames`: a count and its noun, in the number the count asks for. */
export function plural(count: number, noun: string, nouns = `${noun}s`): string {
  return `${count.toLocaleString("en-US")} ${count === 1 ? noun : nouns}`;
}
