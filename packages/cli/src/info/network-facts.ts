import { dirname, relative, resolve, sep } from "node:path";
import type { AssetReference, CompositionInfoReport, NetworkMode } from "@compose/core";
import { remoteAnswers } from "@compose/renderer/project";

/** A remote URL a file of the composition makes the page load (what lint's asset check heard of). */
export interface RemoteReference {
  file: string;
  reference: AssetReference;
}

/**
 * What a render under `policy` does with each remote URL the composition's files name: the
 * project's packages answer it, or the policy lets it through or refuses it. Each URL once per
 * file; files relative to the project directory.
 */
export async function networkFacts(
  references: readonly RemoteReference[],
  entryFile: string,
  policy: { mode: NetworkMode; allowHosts: string[] },
): Promise<CompositionInfoReport["network"]> {
  const projectDir = dirname(entryFile);
  const answerOf = remoteAnswers(resolve(projectDir), policy);
  const seen = new Set<string>();
  const urls: CompositionInfoReport["network"]["urls"] = [];
  for (const { file, reference } of references) {
    const key = `${file}\n${reference.url}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const { answer, reason } = await answerOf(reference.url);
    urls.push({ url: reference.url, file: relative(projectDir, file).split(sep).join("/"), what: reference.what, answer, reason: reason ?? null });
  }
  return { mode: policy.mode, allowHosts: policy.allowHosts, urls };
}
