/**
 * A web site that embeds <compose-player>, as any static host serves one: the player's bundle
 * (packages/player/dist/compose-player.js, as npm installs it), pages that embed it, and the
 * compositions they play, none of them served with the runtime.
 */
import { copyFile, mkdir } from "node:fs/promises";
import { join } from "node:path";
import { createProject, REPO_ROOT, type TempProject } from "./project.js";

export const PLAYER_BUNDLE = join(REPO_ROOT, "packages/player/dist/compose-player.js");

/** An HTML page that loads the player's bundle from `bundle` and holds `body`, with no margin (the player at 0,0). */
export function playerPage(body: string, bundle = "/compose-player.js"): string {
  return `<!doctype html>
<html><head><meta charset="utf-8"><script type="module" src="${bundle}"></script>
<style>body { margin: 0; background: #808080; }</style></head>
<body>${body}</body></html>`;
}

/** A site holding `files` (relative path -> content) and the player's bundle at /compose-player.js. */
export async function createPlayerSite(files: Record<string, string | Buffer>, options: { prefix?: string; gsapIn?: string[] } = {}): Promise<TempProject> {
  const site = await createProject(files, { prefix: options.prefix ?? "compose-player-site-" });
  await copyFile(PLAYER_BUNDLE, site.path("compose-player.js"));
  for (const dir of options.gsapIn ?? []) {
    await mkdir(site.path(dir), { recursive: true });
    await copyFile(join(REPO_ROOT, "node_modules/gsap/dist/gsap.min.js"), site.path(dir, "gsap.min.js"));
  }
  return site;
}

/**
 * Runs in the page: resolves once the player `selector` has nothing queued and its frame is painted
 * (two animation frames after). A string, so that no transpiler helper leaks into the page.
 */
export const PLAYER_IDLE = `async (selector) => {
  const player = document.querySelector(selector);
  await customElements.whenDefined("compose-player");
  await player.whenIdle();
  await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
}`;
