/// <reference lib="dom" />
/**
 * The studio resolves the web as render does: a composition that loads GSAP from jsdelivr at an
 * exact version and Montserrat through a Google Fonts stylesheet, with both packages copied into
 * the project's node_modules, shows in compose preview (chromium and firefox-esr) the frame
 * `compose render --network none` makes, within the bound of a browser's frame (text edges aside);
 * the preview's server answers those URLs from the packages; and `compose lint --network none`
 * refuses neither.
 */
import { cp, mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { PNG } from "pngjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, startCli, type CliRun } from "../support/cli.js";
import { createProject, REPO_ROOT, type TempProject } from "../support/project.js";
import { BROWSERS, FRAME_BOUND, frameDifference, keepFrames, openWebPage, type BrowserName } from "../support/web-browsers.js";

const GSAP_URL = "https://cdn.jsdelivr.net/npm/gsap@3.15.0/dist/gsap.min.js";
const FONTS_URL = "https://fonts.googleapis.com/css2?family=Montserrat:wght@700&display=swap";

const INDEX_HTML = `<!doctype html>
<html>
<head>
  <meta charset="utf-8">
  <link rel="preconnect" href="https://fonts.googleapis.com">
  <link href="${FONTS_URL.replaceAll("&", "&amp;")}" rel="stylesheet">
  <script src="${GSAP_URL}"></script>
  <style>
    * { margin: 0; }
    #stage { position: relative; overflow: hidden; background: #1d2939; font-family: "Montserrat", sans-serif; color: #fff; }
    #title { position: absolute; left: 20px; top: 56px; font-size: 40px; font-weight: 700; white-space: nowrap; }
    #bar { position: absolute; left: 20px; top: 130px; width: 100px; height: 12px; background: #ff5a36; }
  </style>
</head>
<body>
  <div id="stage" data-composition-id="web" data-width="320" data-height="180" data-duration="2">
    <div id="title">Hello web</div>
    <div id="bar"></div>
  </div>
  <script>
    const tl = gsap.timeline({ paused: true });
    tl.from("#title", { x: -200, opacity: 0, duration: 1 }).to("#bar", { width: 280, duration: 1.5, ease: "none" }, 0.5);
    window.__timelines["web"] = tl;
  </script>
</body>
</html>
`;

let project: TempProject;
let rendered: PNG;
/** One preview of the project serves every test: its server's answers and the studio in each browser. */
let preview: CliRun;
let url: string;

beforeAll(async () => {
  project = await createProject({ "index.html": INDEX_HTML }, { prefix: "compose-preview-web-" });
  // Copies, not links: the project's packages as npm installs them.
  await mkdir(project.path("node_modules/@fontsource-variable"), { recursive: true });
  await cp(join(REPO_ROOT, "node_modules/gsap"), project.path("node_modules/gsap"), { recursive: true });
  await cp(join(REPO_ROOT, "node_modules/@fontsource-variable/montserrat"), project.path("node_modules/@fontsource-variable/montserrat"), { recursive: true });
  preview = startCli(["preview", project.dir, "--port", "0"], { timeoutMs: 300_000 });
  const output = project.path("renders", "frame-1.5.png");
  const render = await runCli(["render", project.dir, "--time", "1.5", "--network", "none", "-o", output], { timeoutMs: 120_000 });
  expect(render.code, render.stderr).toBe(0);
  // Resolved from the packages, not refused and not drawn in another font.
  expect(render.stderr).toBe("");
  rendered = PNG.sync.read(await readFile(output));
  url = await preview.waitForStdout(/http:\/\/127\.0\.0\.1:\d+\//);
}, 180_000);

afterAll(async () => {
  preview?.child.kill("SIGTERM");
  await preview?.result;
  await project?.remove();
});

describe("compose lint --network none", () => {
  it("refuses neither the CDN library nor the Google Fonts stylesheet the project's packages answer", async () => {
    const lint = await runCli(["lint", project.dir, "--network", "none"]);
    expect(lint.stdout).toMatch(/^0 errors, 0 warnings/m);
    expect(lint.code).toBe(0);
  });

  it("refuses a version the project does not have", async () => {
    const other = await createProject({ "index.html": INDEX_HTML.replace("gsap@3.15.0", "gsap@3.12.5") }, { prefix: "compose-preview-web-other-" });
    try {
      await cp(join(REPO_ROOT, "node_modules/gsap"), other.path("node_modules/gsap"), { recursive: true });
      const lint = await runCli(["lint", other.dir, "--network", "none"]);
      expect(lint.stdout).toMatch(/warning {2}network-refused {2}refused https:\/\/cdn\.jsdelivr\.net\/npm\/gsap@3\.12\.5\/dist\/gsap\.min\.js/);
      expect(lint.stdout).toMatch(/refused https:\/\/fonts\.googleapis\.com\/css2/);
    } finally {
      await other.remove();
    }
  });
});

/** The studio's frame at 1.5 s against the render's, within the bound of a browser's frame. */
function expectRenderedFrame(browser: BrowserName, shot: PNG): Promise<void> {
  const difference = frameDifference(shot, rendered);
  console.log(
    `${browser}: the studio's frame at 1.5 s against render's: mean difference ${difference.mean.toFixed(3)} per channel, ${(difference.farShare * 100).toFixed(3)} % of pixels off by more than 64`,
  );
  const failing = difference.mean > FRAME_BOUND.mean || difference.farShare > FRAME_BOUND.farShare;
  return (failing ? keepFrames({ studio: shot, render: rendered }) : Promise.resolve("")).then((kept) => {
    expect(difference.mean, `mean difference per channel; frames kept in ${kept}`).toBeLessThanOrEqual(FRAME_BOUND.mean);
    expect(difference.farShare, `share of pixels off by more than 64; frames kept in ${kept}`).toBeLessThanOrEqual(FRAME_BOUND.farShare);
  });
}

describe("compose preview of a composition that names the web", () => {
  it("serves the pages with those URLs leading to itself, and answers them from the project's packages", async () => {
    const html = await (await fetch(new URL("index.html", url))).text();
    expect(html).toContain('<script src="/__compose/web/cdn.jsdelivr.net/npm/gsap@3.15.0/dist/gsap.min.js">');
    expect(html).not.toMatch(/https:\/\/(cdn\.jsdelivr\.net|fonts\.googleapis\.com)/);
    const gsap = await fetch(new URL("/__compose/web/cdn.jsdelivr.net/npm/gsap@3.15.0/dist/gsap.min.js", url), { redirect: "manual" });
    expect(gsap.status).toBe(200);
    expect(await gsap.text()).toBe(await readFile(join(REPO_ROOT, "node_modules/gsap/dist/gsap.min.js"), "utf8"));
    const fonts = await fetch(new URL(`/__compose/web/fonts.googleapis.com/css2?family=Montserrat:wght@700&display=swap`, url), { redirect: "manual" });
    expect(fonts.headers.get("content-type")).toBe("text/css; charset=utf-8");
    const css = await fonts.text();
    expect(css).toMatch(/font-family: "Montserrat"/);
    const fontFile = /url\("(\/__compose\/web\/cdn\.jsdelivr\.net\/npm\/@fontsource-variable\/montserrat@[^"]+\.woff2)"\)/.exec(css)![1]!;
    expect((await fetch(new URL(fontFile, url))).headers.get("content-type")).toBe("font/woff2");
    // A file the packages do not hold is left to the web.
    const other = await fetch(new URL("/__compose/web/cdn.jsdelivr.net/npm/gsap@3.12.5/dist/gsap.min.js", url), { redirect: "manual" });
    expect([other.status, other.headers.get("location")]).toEqual([302, "https://cdn.jsdelivr.net/npm/gsap@3.12.5/dist/gsap.min.js"]);
  });
});

describe.each(BROWSERS)("the studio in %s", (browser) => {
  it("shows at 1.5 s the frame compose render makes, its text in Montserrat and its bar moved by GSAP", async () => {
    const web = await openWebPage(browser, url);
    try {
      const settled = (frame: number) =>
        web.run(
          `(frame) => new Promise((resolve) => {
            const check = () => {
              const stage = document.getElementById("stage");
              if (stage.dataset.pending === "false" && stage.dataset.shownFrame === String(frame)) requestAnimationFrame(() => requestAnimationFrame(resolve));
              else setTimeout(check, 20);
            };
            check();
          })`,
          frame,
        );
      await settled(0);
      await web.run(
        `() => { const input = document.getElementById("scrubber"); input.value = "45"; input.dispatchEvent(new Event("input", { bubbles: true })); }`,
      );
      await settled(45);
      await expectRenderedFrame(browser, await web.screenshot("#composition"));
    } finally {
      await web.close();
    }
  }, 120_000);
});
