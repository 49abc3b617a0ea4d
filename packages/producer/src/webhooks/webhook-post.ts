import { request as httpRequest, type RequestOptions } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIPv6, type LookupFunction } from "node:net";
import { ruleOnConnection, type NetworkPolicy } from "@compose/renderer";

/** How long one attempt may take, connection and answer together. */
const ATTEMPT_TIMEOUT_MS = 10_000;

/** What one POST came to: the receiver's status code, or why there was none. */
export type PostOutcome = { status: number } | { error: string };

/** Answers every lookup with the address the policy checked, so the connection goes where the check looked. */
function pinnedLookup(address: string): LookupFunction {
  const family = isIPv6(address) ? 6 : 4;
  return (_host, options, callback) => {
    if (options.all) (callback as (error: null, addresses: Array<{ address: string; family: number }>) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

/**
 * POSTs `body` to `url` once, under the operator's network policy: a host the policy refuses is
 * not contacted, and a name it resolved and checked is connected to at that very address.
 * Redirects are not followed (a 3xx is an answer like any other that is not 2xx).
 */
export async function postWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  policy: NetworkPolicy,
  signal: AbortSignal,
): Promise<PostOutcome> {
  const ruling = await ruleOnConnection(url, policy);
  if (ruling.reason !== undefined) return { error: `refused by the server's network policy: ${ruling.reason}` };
  const target = new URL(url);
  const send = target.protocol === "https:" ? httpsRequest : httpRequest;
  const options: RequestOptions = {
    method: "POST",
    headers: { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)), "user-agent": "compose-producer", ...headers },
    agent: false,
    signal,
    ...(ruling.address === undefined ? {} : { lookup: pinnedLookup(ruling.address) }),
  };
  return new Promise((resolve) => {
    const request = send(target, options, (response) => {
      // The answer's body says nothing the status does not; it is read only to free the connection.
      response.resume();
      resolve({ status: response.statusCode ?? 0 });
    });
    request.setTimeout(ATTEMPT_TIMEOUT_MS, () => request.destroy(new Error(`no answer within ${ATTEMPT_TIMEOUT_MS / 1000} s`)));
    request.on("error", (error) => resolve({ error: error.message }));
    request.end(body);
  });
}
