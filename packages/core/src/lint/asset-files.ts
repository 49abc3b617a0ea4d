import { cssReferences, isProjectUrl, type AssetReference } from "../html/asset-references.js";
import type { NetworkMode } from "../options/option-declarations.js";
import { createLineIndex } from "../text/line-index.js";
import { quote } from "../text/quote.js";
import type { Report } from "./report.js";

/** Why the page cannot load the project file at `path` ("does not exist", a project rule), or undefined when it can. */
export type CheckAsset = (path: string) => Promise<string | undefined>;

export interface AssetLintOptions {
  check: CheckAsset;
  /** The network the render will have: with `none`, every remote URL it cannot answer locally is reported as refused. */
  network?: NetworkMode;
  /**
   * Whether the render answers a remote URL from the project's own packages without the network
   * (an exact-version CDN file of an installed package, a Google Fonts stylesheet of installed
   * font packages): such a URL is never refused.
   */
  servedLocally?: (url: string) => Promise<boolean>;
  /** Hears of every remote http(s) URL a file makes the page load, whatever the network: `compose info` lists them. */
  onRemote?: (file: string, reference: AssetReference) => void;
}

/** How the render words a URL its network policy refused; lint says the same of a URL it would refuse. */
export function networkRefusedMessage(url: string, reason: string, allowedBy: string): string {
  return `refused ${url.slice(0, 200)}: ${reason} (allowed by ${allowedBy})`;
}

const REMOTE = /^(https?:)?\/\//i;

/**
 * Checks every URL a file makes the page load, relative to that file: a project file that the
 * page cannot load is `missing-asset` (the render's code for it); a style sheet it loads is read
 * and its url() and @import checked in turn, relative to the style sheet, each once. Remote URLs
 * are reported only when the render's network is `none`, which refuses those the project's
 * packages do not answer.
 */
export function createAssetLint(
  options: AssetLintOptions,
  files: { resolvePath: (fromFile: string, src: string) => string; load: (path: string) => Promise<string | undefined>; reportIn: (file: string) => Report },
): (file: string, references: readonly AssetReference[], report: Report) => Promise<void> {
  const readSheets = new Set<string>();
  const lintReferences = async (file: string, references: readonly AssetReference[], report: Report): Promise<void> => {
    for (const reference of references) {
      const url = reference.url.trim();
      if (!isProjectUrl(url)) {
        if (REMOTE.test(url)) options.onRemote?.(file, { ...reference, url });
        if (options.network === "none" && REMOTE.test(url) && !(await options.servedLocally?.(url.startsWith("//") ? `https:${url}` : url))) {
          const host = /^(?:https?:)?\/\/([^/?#:]+)/i.exec(url)?.[1] ?? url;
          report("network-refused", reference.loc, networkRefusedMessage(url, "only the project is allowed", `--allow-host ${host} or --network all`));
        }
        continue;
      }
      const path = files.resolvePath(file, url);
      const problem = await options.check(path);
      if (problem !== undefined) {
        report("missing-asset", reference.loc, `${reference.what} ${quote(url)}: the file ${problem}`);
        continue;
      }
      if (/\.css$/i.test(path) && !readSheets.has(path)) {
        readSheets.add(path);
        const css = await files.load(path).catch(() => undefined);
        if (css !== undefined) await lintReferences(path, sheetReferences(css), files.reportIn(path));
      }
    }
  };
  return lintReferences;
}

function sheetReferences(css: string): AssetReference[] {
  const lineOf = createLineIndex(css);
  return cssReferences(css).map(({ url, what, offset }) => ({ url, what, loc: { ...lineOf(offset), offset } }));
}
