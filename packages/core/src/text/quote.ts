const MAX_QUOTED_LENGTH = 60;

/** Quotes user text for a one-line message; long text (say, a 10 MB attribute) is cut short. */
export function quote(text: string): string {
  const shown = text.length > MAX_QUOTED_LENGTH ? `${text.slice(0, MAX_QUOTED_LENGTH)}…` : text;
  return JSON.stringify(shown);
}
