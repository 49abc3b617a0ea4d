import { describe, expect, it } from "vitest";
import { composition, lintFiles } from "./lint.test-helpers.js";

const where = (findings: Awaited<ReturnType<typeof lintFiles>>) => findings.map((f) => `${f.file}:${f.line}:${f.column} ${f.code} ${f.message}`);

describe("lint resolves every local reference relative to the file that makes it", () => {
  it("src, srcset, stylesheets, scripts, style attributes, <style>, @import, @font-face, in the files they are in", async () => {
    const index = composition(
      [
        '<img src="img/a.png" srcset="img/a.png 1x, img/a2.png 2x">',
        '<video src="clip.mp4" poster="poster.jpg"></video><audio><source src="sound.mp3"></audio>',
        "<div style=\"background: url('bg.png')\"></div>",
        '<div data-composition-id="c1" data-composition-src="parts/card.html"></div>',
      ].join("\n"),
    ).replace(
      "<body>",
      '<head><link rel="stylesheet" href="css/main.css"><script src="lib/gsap.min.js"></script>\n<style>\n@import "css/extra.css";\n.x { background-image: url(img/x.png) }\n</style></head><body>',
    );
    const findings = await lintFiles(
      {
        "index.html": index,
        "img/a.png": "",
        "clip.mp4": "",
        "sound.mp3": "",
        "css/main.css":
          '@font-face { font-family: F; src: url("../fonts/f.woff2") format("woff2"); }\n/* url(commented.png) */\n.y { background: url(tile.png) }',
        "css/extra.css": "",
        "parts/card.html": composition('<img src="logo.png">', { root: 'data-composition-id="card" data-width="100" data-height="100" data-duration="1"' }),
      },
      "index.html",
      {},
    );
    expect(where(findings.filter((f) => f.code === "missing-asset"))).toEqual([
      'index.html:3:58 missing-asset <script> src "lib/gsap.min.js": the file does not exist',
      'index.html:6:24 missing-asset <style> url() "img/x.png": the file does not exist',
      'index.html:9:22 missing-asset <img> srcset "img/a2.png": the file does not exist',
      'index.html:10:23 missing-asset <video> poster "poster.jpg": the file does not exist',
      'index.html:11:25 missing-asset style url() "bg.png": the file does not exist',
      'parts/card.html:5:6 missing-asset <img> src "logo.png": the file does not exist',
      'css/main.css:1:35 missing-asset url() "../fonts/f.woff2": the file does not exist',
      'css/main.css:3:18 missing-asset url() "tile.png": the file does not exist',
    ]);
  });

  it("reports remote URLs only for a render without network", async () => {
    const files = { "index.html": composition('<img src="https://cdn.example.com/a.png">') };
    expect(await lintFiles(files, "index.html", { network: "public" })).toEqual([]);
    expect(where(await lintFiles(files, "index.html", { network: "none" }))).toEqual([
      "index.html:5:6 network-refused refused https://cdn.example.com/a.png: only the project is allowed (allowed by --allow-host cdn.example.com or --network all)",
    ]);
  });
});
