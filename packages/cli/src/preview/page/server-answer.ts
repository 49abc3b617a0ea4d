// The preview server's answers: JSON, a refusal as `{error: {code, message}}` (the producer's
// error shape). No DOM here.

interface Refusal {
  error?: { code: string; message: string };
}

/** What an endpoint answered; a refusal is thrown as an error with its message, preceded by its code with `withCode`. */
export async function answerOf<T>(response: Response, { withCode = false }: { withCode?: boolean } = {}): Promise<T> {
  if (response.ok) return (await response.json()) as T;
  const refusal = ((await response.json().catch(() => undefined)) as Refusal | undefined)?.error;
  if (!refusal) throw new Error(`the preview server answered ${response.status}`);
  throw new Error(withCode ? `${refusal.code}: ${refusal.message}` : refusal.message);
}
