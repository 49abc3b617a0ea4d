import { HttpError, type FastifyInstance, type FastifyRequest } from "@compose/producer/http";

const LOCAL_NAMES = new Set(["127.0.0.1", "localhost", "::1"]);

/** The host name a request was sent to, without its port or IPv6 brackets; "" when it names none. */
function hostNameOf(request: FastifyRequest): string {
  return (request.headers.host ?? "").replace(/:\d+$/, "").replace(/^\[(.*)\]$/, "$1");
}

/**
 * A POST must come from the preview page itself: JSON (which a form on another site cannot send
 * without a preflight this server never answers) and, when the browser names it, this origin.
 */
function fromOwnPage(request: FastifyRequest): boolean {
  const type = (request.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
  const origin = request.headers.origin;
  return type === "application/json" && (origin === undefined || origin === `http://${request.headers.host}`);
}

/**
 * Refuses, before anything is read, what the preview does not answer: another method than GET,
 * HEAD and POST; a host name other than this machine's (a page elsewhere that rebinds its DNS
 * name to 127.0.0.1 cannot read the project); a POST outside the preview's own endpoints
 * (`prefix`), or one its own page would not send.
 */
export function admitOwnPageOnly(app: FastifyInstance, { host, prefix }: { host: string; prefix: string }): void {
  app.addHook("onRequest", async (request) => {
    if (request.method !== "GET" && request.method !== "HEAD" && request.method !== "POST") {
      throw new HttpError(405, "method-not-allowed", `the preview answers GET, HEAD and POST (got ${request.method})`, undefined, { allow: "GET, HEAD, POST" });
    }
    const hostName = hostNameOf(request);
    if (hostName !== "" && !LOCAL_NAMES.has(hostName) && hostName !== host) {
      throw new HttpError(403, "forbidden-host", `the preview answers requests to this machine's names only (got ${hostName})`);
    }
    if (request.method !== "POST") return;
    if (!request.url.startsWith(prefix))
      throw new HttpError(405, "method-not-allowed", "only the preview's own endpoints accept POST", undefined, { allow: "GET, HEAD" });
    if (!fromOwnPage(request)) throw new HttpError(403, "forbidden-origin", "the preview accepts JSON requests from its own page only");
  });
}
