import type { NetworkAnswer } from "@compose/core";
import { createLocalWeb } from "./local/local-resolver.js";
import { ruleOn, type NetworkPolicy } from "./network-policy.js";

export interface RemoteAnswer {
  answer: NetworkAnswer;
  /** Why it is refused, or what would let the project serve it itself. */
  reason: string | undefined;
}

/**
 * What a render of the project at `projectRoot` does with each remote URL under `policy`, as its
 * pages' requests are routed (routeRequests): answered from the project's packages first, else
 * allowed or refused by the policy. A protocol-relative URL is taken as https.
 */
export function remoteAnswers(projectRoot: string, policy: NetworkPolicy): (url: string) => Promise<RemoteAnswer> {
  const local = createLocalWeb({ root: projectRoot, parents: true });
  return async (url) => {
    const absolute = url.startsWith("//") ? `https:${url}` : url;
    if (await local.resolve(absolute)) return { answer: "project", reason: undefined };
    // No project origin: every URL asked about is remote.
    const { reason } = await ruleOn(absolute, policy, "null");
    const remedy = await local.remedy(absolute);
    if (reason === undefined) return { answer: "allowed", reason: remedy };
    return { answer: "refused", reason: remedy === undefined ? reason : `${reason}; ${remedy}` };
  };
}
