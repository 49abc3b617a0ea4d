import type { CDPSession, Protocol } from "puppeteer-core";
import { RenderError } from "../common/render-error.js";
import { REFUSED_HEADER } from "../web/project-server.js";

/** What the page requested and could not get. */
interface AssetFailure {
  /** The resource type as the browser names it (Image, Stylesheet, Font, Fetch, Media...). */
  type: string;
  url: string;
  /** "HTTP 404", the network error, or the project rule the file breaks ("it leads out of the project…"). */
  status: string;
  /** Whether the project server refused it by a project rule (then `status` names the rule). */
  byRule?: boolean;
  /** The file and line that asked for it, when the browser knows. */
  initiator: string | undefined;
}

/** What the page's own code needs to run: when one fails to load, the page errors that follow may be its doing. */
const CODE_TYPES = new Set(["Script", "Stylesheet"]);
const MISSING_HINT = "; fix the reference, or render with --allow-missing-assets to go ahead without it";
const RULE_HINT = "; copy the file into the project as a regular file without a leading dot, or render with --allow-missing-assets to go ahead without it";

/**
 * Refusals of the render's own network policy are reported by the policy; a request the page
 * cancelled (a replaced image, a video whose source the renderer removed) did not fail.
 */
const NOT_FAILURES = /ERR_BLOCKED_BY_CLIENT|ERR_ABORTED/;

export interface AssetWatchOptions {
  /** The project server's base URL: assets under it are named by their path in the project. */
  baseUrl: string;
  /** With --allow-missing-assets: failures become warnings instead of failing the render. */
  allowMissing: boolean;
  warn: (message: string) => void;
}

/**
 * Watches every request of the page and of its frames (images, CSS url(), fonts, scripts,
 * fetch/XHR; media fail in the renderer's own probe) through the Network domain, so that an asset that fails to load fails the render
 * instead of drawing a broken picture.
 */
export class AssetWatch {
  readonly #options: AssetWatchOptions;
  readonly #requests = new Map<string, Protocol.Network.RequestWillBeSentEvent>();
  readonly #failures: AssetFailure[] = [];
  readonly #named = new Set<string>();
  /** Every script and stylesheet that failed to load, the policy's refusals included, in order. */
  readonly #unloadedCode: AssetFailure[] = [];

  private constructor(options: AssetWatchOptions) {
    this.#options = options;
  }

  static async start(cdp: CDPSession, options: AssetWatchOptions): Promise<AssetWatch> {
    const watch = new AssetWatch(options);
    cdp.on("Network.requestWillBeSent", (event) => watch.#requests.set(event.requestId, event));
    // Requests that loaded are forgotten, so a long render does not keep every frame's request.
    cdp.on("Network.loadingFinished", (event) => watch.#requests.delete(event.requestId));
    cdp.on("Network.responseReceived", (event) => {
      if (event.response.status < 400) return;
      const rule = event.response.headers[REFUSED_HEADER];
      if (rule !== undefined && event.response.url.startsWith(options.baseUrl)) watch.#fail(event.requestId, `it ${rule}`, true);
      else watch.#fail(event.requestId, `HTTP ${event.response.status}`);
    });
    cdp.on("Network.loadingFailed", (event) => {
      if (event.errorText.includes("ERR_BLOCKED_BY_CLIENT")) watch.#refused(event.requestId);
      if (event.canceled || NOT_FAILURES.test(event.errorText)) return;
      watch.#fail(event.requestId, event.errorText);
    });
    await cdp.send("Network.enable");
    return watch;
  }

  /** A script or stylesheet the network policy refused: the policy warns of it, but a page error may follow. */
  #refused(requestId: string): void {
    const request = this.#requests.get(requestId);
    if (!request || !CODE_TYPES.has(request.type ?? "")) return;
    this.#unloadedCode.push({
      type: request.type!,
      url: request.request.url,
      status: "refused by the network policy",
      initiator: this.#initiator(request.initiator),
    });
  }

  #fail(requestId: string, status: string, byRule = false): void {
    const request = this.#requests.get(requestId);
    // Timed media are probed and extracted by the renderer, which names a missing one by its element.
    if (!request || request.type === "Media" || request.request.url.startsWith("data:")) return;
    // A failed request may report a status, then loadingFailed too; a frame may ask again: name it once.
    if (this.#named.has(request.request.url)) return;
    this.#named.add(request.request.url);
    const failure = { type: request.type ?? "Other", url: request.request.url, status, byRule, initiator: this.#initiator(request.initiator) };
    this.#failures.push(failure);
    if (CODE_TYPES.has(failure.type)) this.#unloadedCode.push(failure);
  }

  #initiator(initiator: Protocol.Network.Initiator): string | undefined {
    // The page's own call: the runtime, injected without a URL, watches fetch() from inside it.
    const frame = initiator.stack?.callFrames.find((call) => call.url !== "");
    const url = frame?.url ?? initiator.url;
    if (!url) return undefined;
    const line = frame ? frame.lineNumber + 1 : initiator.lineNumber === undefined ? undefined : initiator.lineNumber + 1;
    return line === undefined ? this.#name(url) : `${this.#name(url)}:${line}`;
  }

  #name(url: string): string {
    if (!url.startsWith(this.#options.baseUrl)) return url;
    const path = url.slice(this.#options.baseUrl.length).split(/[?#]/)[0]!;
    try {
      return decodeURIComponent(path);
    } catch {
      return path;
    }
  }

  #describe(failure: AssetFailure): string {
    const by = failure.initiator ? `, requested by ${failure.initiator}` : "";
    return `${failure.type.toLowerCase()} ${this.#name(failure.url)} failed to load (${failure.status}${by})`;
  }

  /** Fails the render on the first asset that failed since the last check, or warns of each. */
  check(): void {
    const failures = this.#failures.splice(0);
    if (failures.length === 0) return;
    if (!this.#options.allowMissing) throw new RenderError("missing-asset", `${this.#describe(failures[0]!)}${failures[0]!.byRule ? RULE_HINT : MISSING_HINT}`);
    for (const failure of failures) this.#options.warn(this.#describe(failure));
  }

  /**
   * The failure for a page script error, `description`. When a script or stylesheet failed to
   * load before it, that load is the first thing that went wrong: the failure names it first and
   * says the page error may follow from it, and lists both as problems. Without
   * --allow-missing-assets the failed load is what stops the render (missing-asset); with it, each
   * failed load is warned of first and the page error stops the render.
   */
  pageError(description: string): RenderError {
    const pageProblem = { code: "page-error", message: description };
    const cause = this.#unloadedCode[0];
    if (cause === undefined) return new RenderError("page-error", description);
    const refused = cause.status === "refused by the network policy";
    const problems = [{ code: refused ? "network-refused" : "missing-asset", message: this.#describe(cause) }, pageProblem];
    const told = `${this.#describe(cause)}; later page errors may follow from it, the first: ${description}`;
    if (refused || this.#options.allowMissing) {
      this.check();
      return new RenderError("page-error", told, { problems });
    }
    this.#failures.splice(0);
    return new RenderError("missing-asset", `${told}${cause.byRule ? RULE_HINT : MISSING_HINT}`, { problems });
  }
}
