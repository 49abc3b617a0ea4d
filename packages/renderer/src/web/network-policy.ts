import { lookup } from "node:dns/promises";
import ipaddr from "ipaddr.js";
import type { Browser, CDPSession } from "puppeteer-core";
import type { NetworkMode } from "@compose/core";
import { LOCAL_WEB_HOSTS, type LocalWeb } from "./local/local-resolver.js";

/** What pages of a render may load, besides the project itself. */
export interface NetworkPolicy {
  /** none: the project only; public: also public http(s) addresses; all: anything. */
  mode: NetworkMode;
  /** Host names (or `*.domain`) allowed whatever their address. */
  allowHosts: readonly string[];
}

export const ALLOW_EVERYTHING: NetworkPolicy = { mode: "all", allowHosts: [] };

const WIDTH: Record<NetworkMode, number> = { none: 0, public: 1, all: 2 };

/** The narrower of two modes: a request may narrow what its server allows, never widen it. */
export function narrower(a: NetworkMode, b: NetworkMode): NetworkMode {
  return WIDTH[a] <= WIDTH[b] ? a : b;
}

/** Schemes that never touch the network. */
const LOCAL_SCHEMES = new Set(["data:", "blob:", "about:"]);

function allowedByName(host: string, allowHosts: readonly string[]): boolean {
  const name = host.toLowerCase().replace(/^\[|\]$/g, "");
  return allowHosts.some((allowed) => {
    const rule = allowed.toLowerCase();
    return rule.startsWith("*.") ? name.endsWith(rule.slice(1)) : name === rule;
  });
}

/** Why an address is not public, or undefined when it is (ipaddr.js's "unicast" range). */
function nonPublicRange(address: string): string | undefined {
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  const range = parsed.range();
  return range === "unicast" ? undefined : `a ${range.replace(/([A-Z])/g, " $1").toLowerCase()} address`;
}

/** What the policy says of a URL: refused and why, or allowed, with the checked address to connect to when a name was resolved. */
export type Ruling = { reason: string } | { reason?: undefined; address?: string };

/**
 * Rules on `url` under `policy`. `projectOrigin` (the project server, on loopback) is always
 * allowed. Host names are resolved first, so a name that points at a private address is refused
 * like the address itself; an allowed name comes with the address checked, so that whoever
 * connects can use that very address rather than resolve the name again.
 */
export async function ruleOn(url: string, policy: NetworkPolicy, projectOrigin: string): Promise<Ruling> {
  if (policy.mode === "all") return {};
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { reason: "not a valid URL" };
  }
  if (LOCAL_SCHEMES.has(parsed.protocol) || parsed.origin === projectOrigin) return {};
  if (!/^(https?|wss?):$/.test(parsed.protocol)) return { reason: `${parsed.protocol} URLs are not allowed` };
  if (allowedByName(parsed.hostname, policy.allowHosts)) return {};
  if (policy.mode === "none") return { reason: "only the project is allowed" };
  // An unresolvable name loads nothing either way; the browser reports it as it would.
  return (await publicAddress(parsed.hostname)) ?? {};
}

/** The host's address when every address it resolves to is public, else why not; undefined when the name does not resolve. */
async function publicAddress(hostname: string): Promise<Ruling | undefined> {
  const host = hostname.replace(/^\[|\]$/g, "");
  let addresses: string[];
  try {
    addresses = ipaddr.isValid(host) ? [host] : (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
  } catch {
    return undefined;
  }
  for (const address of addresses) {
    const range = nonPublicRange(address);
    if (range) return { reason: `${host === address ? "" : `it resolves to ${address}, `}${range}` };
  }
  return { address: addresses[0] };
}

/**
 * Rules on an http(s) URL the server itself connects to (a webhook) under the operator's policy:
 * a host allowed by name (or any host under `all`) goes as it is; otherwise, under `public`, its
 * name is resolved and every address must be public, and the ruling names the address to connect
 * to, so a name that resolves differently the next time (DNS rebinding) cannot switch it. A name
 * that does not resolve is refused here, since nothing checked would be connected to.
 */
export async function ruleOnConnection(url: string, policy: NetworkPolicy): Promise<Ruling> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { reason: "not a valid URL" };
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return { reason: `${parsed.protocol} URLs are not allowed, only http and https` };
  if (policy.mode === "all" || allowedByName(parsed.hostname, policy.allowHosts)) return {};
  if (policy.mode === "none") return { reason: "only hosts allowed by name are (the network policy is none)" };
  return (await publicAddress(parsed.hostname)) ?? { reason: `its host ${parsed.hostname} does not resolve` };
}

/** Why `url` may not be loaded under `policy`, or undefined when it may (ruleOn's reason). */
export async function refusalOf(url: string, policy: NetworkPolicy, projectOrigin: string): Promise<string | undefined> {
  return (await ruleOn(url, policy, projectOrigin)).reason;
}

/** The host a refusal is reported under (one warning per host and render), or the scheme when there is none. */
function hostOf(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.hostname || parsed.protocol;
  } catch {
    return url.slice(0, 80);
  }
}

/** `ruleOn` under one policy, asked once per origin: a hundred images from one CDN resolve its name once. */
export function createRuling(policy: NetworkPolicy, projectOrigin: string): (url: string) => Promise<Ruling> {
  const rulings = new Map<string, Promise<Ruling>>();
  return (url) => {
    const key = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(url)?.[0];
    if (!key) return ruleOn(url, policy, projectOrigin);
    if (!rulings.has(key)) rulings.set(key, ruleOn(url, policy, projectOrigin));
    return rulings.get(key)!;
  };
}

/**
 * Routes what the browser loads: a request the project's packages answer (LocalWeb) is answered
 * from them; anything else is held to the policy's ruling and goes on, or fails as
 * BlockedByClient. Every request pauses at the browser's Fetch domain when the policy refuses
 * anything (frames, iframes, workers, fonts, media); otherwise only those to the hosts LocalWeb
 * may answer.
 */
export async function routeRequests(browser: Browser, network: PageNetwork): Promise<CDPSession> {
  const session = await browser.target().createCDPSession();
  session.on("Fetch.requestPaused", ({ requestId, request }) => {
    void (async () => {
      const local = await network.local.resolve(request.url);
      if (local) {
        return session.send("Fetch.fulfillRequest", {
          requestId,
          responseCode: 200,
          // Fonts and module scripts are fetched in CORS mode from the project's origin.
          responseHeaders: [
            { name: "Content-Type", value: local.contentType },
            { name: "Access-Control-Allow-Origin", value: "*" },
          ],
          body: local.body.toString("base64"),
        });
      }
      const { reason } = await network.ruling(request.url);
      if (reason === undefined) return session.send("Fetch.continueRequest", { requestId });
      network.onRefused(request.url, reason, await network.local.remedy(request.url));
      return session.send("Fetch.failRequest", { requestId, errorReason: "BlockedByClient" });
    })().catch(() => undefined);
  });
  const patterns = network.policy.mode === "all" ? LOCAL_WEB_HOSTS.map((host) => ({ urlPattern: `*://${host}/*` })) : [{ urlPattern: "*" }];
  await session.send("Fetch.enable", { patterns });
  return session;
}

/** The operator's policy: the widest a request may have, and whether requests may add hosts. */
export interface OperatorNetworkPolicy extends NetworkPolicy {
  acceptRequestHosts: boolean;
}

/**
 * The policy of one render: the request's mode within the operator's (never wider), the
 * operator's hosts, and the request's own hosts where the operator accepts them.
 */
export function effectivePolicy(operator: OperatorNetworkPolicy | undefined, requested: { network?: NetworkMode; allowHosts?: string[] }): NetworkPolicy {
  const ceiling = operator ?? { ...ALLOW_EVERYTHING, acceptRequestHosts: true };
  return {
    mode: narrower(requested.network ?? ceiling.mode, ceiling.mode),
    allowHosts: [...ceiling.allowHosts, ...(ceiling.acceptRequestHosts ? (requested.allowHosts ?? []) : [])],
  };
}

/** Reports each refused host once, as a warning of the render naming the options that would allow it. */
export function refusalReporter(
  emit: (event: { type: "warning"; code: string; message: string }) => void,
  optionName: (field: string) => string,
): RefusalListener {
  const reported = new Set<string>();
  return (url, reason, remedy) => {
    const host = hostOf(url);
    // A file that the project could serve itself is named on its own: each wants its own package.
    const key = remedy === undefined ? host : `${host} ${remedy}`;
    if (reported.has(key)) return;
    reported.add(key);
    const everything = `${optionName("network")} all`;
    const allowedBy = host.endsWith(":") ? everything : `${optionName("allowHosts")} ${host} or ${everything}`;
    const local = remedy === undefined ? "" : `; ${remedy}`;
    emit({ type: "warning", code: "network-refused", message: `refused ${url.slice(0, 200)}: ${reason} (allowed by ${allowedBy})${local}` });
  };
}

/** Hears of a refused request: why, and what would let the project serve it itself, when anything would. */
export type RefusalListener = (url: string, reason: string, remedy?: string) => void;

/** What the pages may load, and who hears of a refused request. */
export interface PageNetwork {
  policy: NetworkPolicy;
  /** What the policy says of a URL. */
  ruling: (url: string) => Promise<Ruling>;
  onRefused: RefusalListener;
  /** What the project's own packages answer in place of the web. */
  local: LocalWeb;
  /** The policy proxy the browsers (for WebSockets) and ffmpeg (for remote media) connect through, when the policy refuses anything. */
  proxy?: string;
}
