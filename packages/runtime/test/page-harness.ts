/*
 * Real Chromium, real runtime bundle, pages served over HTTP on 127.0.0.1 (evaluateOnNewDocument
 * scripts run only in documents loaded by navigation, so pages are not set with setContent).
 */
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { dirname, extname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "puppeteer-core";
import type { ComposeApi, ComposeBootConfig } from "../src/api.js";
import { launchBrowser } from "../../renderer/src/page/launch-browser.js";

declare global {
  interface Window {
    __compose?: ComposeApi;
  }
}

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const GSAP_PATH = join(repoRoot, "node_modules/gsap/dist/gsap.min.js");

const CONTENT_TYPES: Record<string, string> = {
  ".js": "text/javascript",
  ".svg": "image/svg+xml",
  ".txt": "text/plain; charset=utf-8",
};

/** Files under /slow/ are answered this late, to show that seek waits for them. */
export const SLOW_RESPONSE_MS = 300;

/** Loads GSAP from the workspace's node_modules (every page is served beside a gsap.js). */
export const GSAP_SCRIPT = '<script src="gsap.js"></script>';

/**
 * Runs the package's own bundle script, into a file of this test file's own: test files may run
 * in parallel and must never read a bundle another one is still writing.
 */
function buildBundle(): string {
  const outfile = join(tmpdir(), `compose-runtime-${process.pid}-${Date.now()}.js`);
  execFileSync("npm", ["run", "--silent", "-w", "@compose/runtime", "bundle", "--", `--outfile=${outfile}`, "--log-level=warning"], {
    cwd: repoRoot,
    stdio: ["ignore", "ignore", "inherit"],
  });
  const source = readFileSync(outfile, "utf8");
  rmSync(outfile);
  return source;
}

export interface OpenOptions {
  config?: ComposeBootConfig;
  /** Other files served beside the page, by path ("/child.html"). */
  files?: Record<string, string>;
  /** Wait for __compose.ready() (default true). */
  ready?: boolean;
}

export interface Harness {
  bundle: string;
  browser: Browser;
  /** Loads `html` as /index.html (in a fresh page, runtime injected) and returns the page. */
  open(html: string, options?: OpenOptions): Promise<Page>;
  close(): Promise<void>;
}

export async function startHarness(): Promise<Harness> {
  const bundle = buildBundle();
  const gsap = readFileSync(GSAP_PATH, "utf8");
  const sites = new Map<string, Record<string, string>>();
  const server: Server = createServer((request, response) => {
    const [, site, ...rest] = new URL(request.url ?? "/", "http://localhost").pathname.split("/");
    const path = `/${rest.join("/")}`;
    const body = path === "/gsap.js" ? gsap : sites.get(site ?? "")?.[path];
    if (body === undefined) {
      response.writeHead(404).end();
      return;
    }
    const send = (): void => {
      response.writeHead(200, { "content-type": CONTENT_TYPES[extname(path)] ?? "text/html; charset=utf-8" });
      response.end(body);
    };
    if (path.startsWith("/slow/")) setTimeout(send, SLOW_RESPONSE_MS);
    else send();
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("the test server has no port");
  const browser = await launchBrowser({ beginFrameControl: false, gpu: false });
  let sitesOpened = 0;

  return {
    bundle,
    browser,
    async open(html, options = {}) {
      const site = `s${++sitesOpened}`;
      sites.set(site, { "/index.html": html, ...options.files });
      const page = await browser.newPage();
      await page.setViewport({ width: 320, height: 180 });
      await page.evaluateOnNewDocument(`${bundle}\nwindow.__composeBoot(${JSON.stringify(options.config ?? {})});`);
      await page.goto(`http://127.0.0.1:${address.port}/${site}/index.html`);
      if (options.ready !== false) await page.evaluate(() => window.__compose!.ready());
      return page;
    },
    async close() {
      await browser.close();
      await new Promise((done) => server.close(done));
    },
  };
}
