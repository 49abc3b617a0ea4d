/**
 * An instance gets what an inline piece of its host would: the host page's <script src> libraries
 * (GSAP here, which card.html uses without loading it), the host element's inherited text styles
 * and the host's web fonts; its ids and timelines stay its own.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { render, type CliResult } from "../support/cli.js";
import { decodeFrame, hex, isColour, type Frame } from "../support/media.js";
import { createProject, type TempProject } from "../support/project.js";

const FONT = readFileSync("/usr/share/fonts/truetype/dejavu/DejaVuMathTeXGyre.ttf");

function host(content: string): string {
  return `<!doctype html><html><head><style>
    @font-face { font-family: Brand; src: url("fonts/brand.ttf"); }
    #stage { font-family: Brand; color: #00ff00; font-size: 40px; line-height: 40px; }
  </style><script src="gsap.min.js"></script></head><body>
  <div id="stage" style="position:relative;width:320px;height:180px;background:#000" data-composition-id="main" data-width="320" data-height="180" data-duration="1">${content}</div>
  </body></html>`;
}

const TEXT = `<p style="position:absolute;left:100px;top:0;margin:0">Hg</p>`;

/** Uses gsap without loading it, and ids that both instances share. */
const CARD = `<!doctype html><html><body>
<div id="card" style="position:relative" data-composition-id="card" data-width="320" data-height="90" data-duration="1">
  <div id="box" style="position:absolute;left:0;top:0;width:20px;height:20px;background:#ff0000"></div>${TEXT}
</div>
<script>
  const tl = gsap.timeline({ paused: true });
  tl.to("#box", { x: 100, duration: 1, ease: "none" });
  window.__timelines["card"] = tl;
</script></body></html>`;

let project: TempProject;
let nested: CliResult;
let inline: CliResult;

beforeAll(async () => {
  project = await createProject(
    {
      "fonts/brand.ttf": FONT,
      "index.html": host(
        `<div style="position:absolute;left:0;top:0" data-composition-id="c1" data-composition-src="parts/card.html"></div>
         <div style="position:absolute;left:0;top:90px" data-composition-id="c2" data-composition-src="parts/card.html"></div>`,
      ),
      "parts/card.html": CARD,
      "inline.html": host(`<div style="position:absolute;left:0;top:0">${TEXT}</div><div style="position:absolute;left:0;top:90px">${TEXT}</div>`),
    },
    { gsap: true },
  );
  const run = (name: string) => render([project.path(`${name}.html`), "--format", "png-sequence", "--quiet", "--workers", "1", "--output", project.path(name)]);
  [nested, inline] = await Promise.all([run("index"), run("inline")]);
});
afterAll(() => project?.remove());

function region(frame: Frame, left: number): Buffer {
  const rows: Buffer[] = [];
  for (let y = 0; y < frame.height; y++) rows.push(frame.data.subarray((y * frame.width + left) * 4, (y + 1) * frame.width * 4));
  return Buffer.concat(rows);
}

describe("what an instance inherits", () => {
  it("runs the instance's script with the host's GSAP, each instance moving its own #box", async () => {
    expect(nested.code).toBe(0);
    const half = await decodeFrame(project.path("index/frame_000015.png"));
    for (const top of [0, 90]) {
      expect(isColour(half, 55, top + 5, hex("#ff0000"), 2)).toBe(true);
      expect(isColour(half, 5, top + 5, hex("#000000"), 2)).toBe(true);
    }
  });

  it("draws the instance's text in the host's web font, colour and size, as inline markup would", async () => {
    expect(inline.code).toBe(0);
    const [a, b] = await Promise.all(["index", "inline"].map((name) => decodeFrame(project.path(`${name}/frame_000000.png`))));
    expect(region(a!, 100).some((value, index) => index % 4 === 1 && value === 255)).toBe(true);
    expect(region(a!, 100).equals(region(b!, 100))).toBe(true);
  });
});
