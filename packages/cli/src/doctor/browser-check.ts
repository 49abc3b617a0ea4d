import { PNG } from "pngjs";
import { withDeadline } from "@compose/renderer/project";

/** A tiny composition: a box coloured by a variable, faded in by a Web Animation over one second. */
const TEST_PAGE = `<!doctype html>
<html data-composition-variables='[{"id":"fill","type":"color","label":"Fill","default":"#ff0000"}]'>
<head><meta charset="utf-8"><style>*{margin:0} #box{width:64px;height:64px}</style></head>
<body>
<div data-composition-id="doctor" data-width="64" data-height="64" data-duration="1"><div id="box"></div></div>
<script>
  const box = document.getElementById("box");
  box.style.background = __compose.getVariables().fill;
  box.animate([{ opacity: 0 }, { opacity: 1 }], { duration: 1000, fill: "both" });
</script>
</body>
</html>`;

/** The variable value handed to the page, and the colour the seeked frame must show. */
const FILL = "#00ff00";
const EXPECTED: [number, number, number] = [0, 255, 0];

export interface BrowserCheckResult {
  executable: string;
  version: string;
  /** False when the browser lacks BeginFrame control (not the headless shell): renders fall back to screenshots. */
  beginFrame: boolean;
  ms: number;
}

/**
 * Launches the browser the way render does, loads a composition with the page runtime booted with a
 * variable, seeks it to its end and reads a pixel back: proves launch, runtime, variables, seek and
 * capture all work. Rejects with a one-line reason otherwise.
 */
export async function checkBrowser(timeoutMs: number): Promise<BrowserCheckResult> {
  const started = Date.now();
  const { findBrowserExecutable, launchBrowser, runtimeSource } = await import("@compose/renderer");
  const executable = findBrowserExecutable();
  const launching = launchBrowser({ beginFrameControl: false, gpu: false });
  let browser: Awaited<typeof launching>;
  try {
    browser = await withDeadline(launching, timeoutMs, () => {
      throw new Error(`the browser did not start within ${timeoutMs / 1000} s`);
    });
  } catch (error) {
    // A launch that finishes after the time limit must not leave a browser behind.
    launching.then((late) => late.close()).catch(() => undefined);
    throw error;
  }
  try {
    return await withDeadline(
      (async () => {
        const version = await browser.version();
        const page = await browser.newPage();
        await page.setViewport({ width: 64, height: 64, deviceScaleFactor: 1 });
        const cdp = await page.createCDPSession();
        let beginFrame = true;
        try {
          await cdp.send("HeadlessExperimental.enable");
          await cdp.send("HeadlessExperimental.disable");
        } catch {
          beginFrame = false;
        }
        await page.evaluateOnNewDocument(runtimeSource({ variables: { fill: FILL } }));
        await page.goto(`data:text/html;charset=utf-8,${encodeURIComponent(TEST_PAGE)}`, { waitUntil: "load" });
        await page.evaluate("window.__compose.ready().then(() => window.__compose.seek(1))");
        const errors = (await page.evaluate("window.__compose.errors.map((e) => e.message)")) as string[];
        if (errors[0]) throw new Error(`the test page failed: ${errors[0]}`);
        const png = await page.screenshot({ type: "png", clip: { x: 32, y: 32, width: 1, height: 1 } });
        const [r = 0, g = 0, b = 0] = PNG.sync.read(Buffer.from(png)).data;
        if (Math.abs(r - EXPECTED[0]) > 8 || Math.abs(g - EXPECTED[1]) > 8 || Math.abs(b - EXPECTED[2]) > 8) {
          throw new Error(`the test frame showed rgb(${r}, ${g}, ${b}) where rgb(${EXPECTED.join(", ")}) was expected`);
        }
        return { executable, version, beginFrame, ms: Date.now() - started };
      })(),
      timeoutMs,
      () => {
        throw new Error(`the browser did not render the test page within ${timeoutMs / 1000} s`);
      },
    );
  } finally {
    await browser.close().catch(() => undefined);
  }
}
