import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { BROWSER_TEMP, ownedTempDir } from "../output/owned-temp.js";
import puppeteer, { type Browser } from "puppeteer-core";
import { trackChild } from "../common/child-processes.js";

/** The real binary behind Debian's /usr/bin/chromium-headless-shell wrapper script. */
const HEADLESS_SHELL_CANDIDATES = ["/usr/lib/chromium/chromium-headless-shell", "/usr/bin/chromium-headless-shell"];

export class BrowserNotFoundError extends Error {
  constructor() {
    super(
      "chromium-headless-shell was not found: install it with `sudo apt-get install chromium-headless-shell`" +
        " or set COMPOSE_BROWSER to a Chromium headless shell binary",
    );
  }
}

export function findBrowserExecutable(): string {
  const fromEnv = process.env.COMPOSE_BROWSER;
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new BrowserNotFoundError();
    return fromEnv;
  }
  const found = HEADLESS_SHELL_CANDIDATES.find((path) => existsSync(path));
  if (!found) throw new BrowserNotFoundError();
  return found;
}

export interface LaunchOptions {
  /** BeginFrame control: frames are produced only when we ask, which makes capture deterministic. */
  beginFrameControl: boolean;
  /** Let Chromium use the host GPU; off gives reproducible software rendering. */
  gpu: boolean;
  /** A proxy for every connection, loopback included (the network policy's, for WebSockets). */
  proxy?: string;
  /** The fontconfig file the browser finds fonts through (defaultFontconfig), whatever the system's is. */
  fontconfigFile?: string;
  /** Device pixels per CSS pixel every page is drawn at (drawnScale); 1 when absent. */
  deviceScaleFactor?: number;
}

/** Flags that keep a headless browser quiet on a machine with no network beyond localhost. */
const QUIET_FLAGS = [
  "--no-sandbox",
  "--no-first-run",
  "--no-default-browser-check",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-quic",
  "--disable-default-apps",
  "--disable-extensions",
  "--disable-breakpad",
  "--mute-audio",
  "--hide-scrollbars",
  "--font-render-hinting=none",
  "--force-color-profile=srgb",
  "--disable-background-timer-throttling",
  "--disable-renderer-backgrounding",
  "--disable-backgrounding-occluded-windows",
  "--autoplay-policy=no-user-gesture-required",
  // window.open and target=_blank return nothing: a composition cannot multiply pages or processes.
  "--block-new-web-contents",
  // A script that allocates without end crashes its page (page-crashed) at this heap size, not the machine.
  "--js-flags=--max-old-space-size=1024",
];

const BEGIN_FRAME_FLAGS = [
  "--deterministic-mode",
  "--enable-begin-frame-control",
  "--run-all-compositor-stages-before-draw",
  "--disable-threaded-animation",
  "--disable-threaded-scrolling",
  "--disable-checker-imaging",
  "--disable-new-content-rendering-timeout",
  "--disable-image-animation-resync",
];

export async function launchBrowser(options: LaunchOptions): Promise<Browser> {
  const args = [...QUIET_FLAGS];
  if (options.beginFrameControl) args.push(...BEGIN_FRAME_FLAGS);
  if (!options.gpu) args.push("--disable-gpu");
  if (options.proxy) args.push(`--proxy-server=${options.proxy}`, "--proxy-bypass-list=<-loopback>");
  // The display's own factor: what a BeginFrame screenshot is drawn at (page/device-scale.ts).
  if (options.deviceScaleFactor !== undefined && options.deviceScaleFactor !== 1) args.push(`--force-device-scale-factor=${options.deviceScaleFactor}`);
  const executablePath = findBrowserExecutable();
  // Our own profile directory, named after this process, so a later start removes it if we are killed.
  const userDataDir = await ownedTempDir(tmpdir(), BROWSER_TEMP);
  const removeProfile = () => rm(userDataDir, { recursive: true, force: true, maxRetries: 3 }).catch(() => undefined);
  const browser = await puppeteer
    .launch({
      executablePath,
      userDataDir,
      headless: "shell",
      args,
      defaultViewport: null,
      env: options.fontconfigFile ? { ...process.env, FONTCONFIG_FILE: options.fontconfigFile } : process.env,
      // Over a pipe rather than a port: when this process dies, however, the pipe closes and the
      // browser exits with it.
      pipe: true,
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    })
    .catch(async (error: unknown) => {
      await removeProfile();
      throw error;
    });
  const child = browser.process();
  if (child) trackChild(child);
  // Removed once the process has exited, not merely disconnected: until then it may still write there.
  const exited = child && child.exitCode === null && child.signalCode === null ? new Promise((resolve) => child.once("exit", resolve)) : Promise.resolve();
  profilesRemoved.set(browser, exited.then(removeProfile));
  return browser;
}

const profilesRemoved = new WeakMap<Browser, Promise<void>>();

/** Resolves once the browser's process has exited and its profile directory is gone. */
export function profileRemoved(browser: Browser): Promise<void> {
  return profilesRemoved.get(browser) ?? Promise.resolve();
}
