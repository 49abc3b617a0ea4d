/** `a, b or c` with "or", `a and b` with "and": words as a sentence lists them. */
export function listed(words: readonly (string | number)[], last: "and" | "or"): string {
  return words.length < 2 ? words.join("") : `${words.slice(0, -1).join(", ")} ${last} ${words.at(-1)}`;
}
