/** compose lint names the markers of a composition written for the other renderer, each with its fix. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lines, runCli } from "../support/cli.js";
import { createProject, type TempProject } from "../support/project.js";

const FOREIGN = `<!doctype html>
<html><body>
<div id="stage" data-composition-id="ported" data-width="320" data-height="180" data-duration="1" data-fps="30" data-no-timeline>
  <p id="title">title</p>
</div>
<script>
  const { title } = window.__hyperframes.getVariables();
  window.__hfSeek = (t) => { document.getElementById("title").style.opacity = t; };
  window.addEventListener("hf-seek", (event) => window.__hfSeek(event.detail));
</script>
</body></html>
`;

let project: TempProject;
beforeAll(async () => {
  project = await createProject({ "index.html": FOREIGN });
});
afterAll(() => project?.remove());

describe("lint of a composition written for the other renderer", () => {
  it("reports each marker where it is, with what to use here", async () => {
    const result = await runCli(["lint", "index.html"], { cwd: project.dir });
    expect(result.code).toBe(0);
    expect(lines(result.stdout)).toEqual([
      "index.html:3:99  warning  foreign-fps  data-fps is ignored: the frame rate is chosen at render time with --fps (24, 30 or 60)",
      "index.html:3:113  warning  foreign-no-timeline  data-no-timeline is the other renderer's and means nothing here (a composition without a GSAP timeline needs no marker): remove it",
      "index.html:7:28  warning  foreign-runtime-api  window.__hyperframes is the other renderer's API and does not exist here: use window.__compose (getVariables(), onSeek(fn))",
      "index.html:8:10  warning  foreign-adapter-global  __hfSeek is an adapter global of the other renderer and nothing calls it here: register GSAP timelines in window.__timelines, or draw from __compose.onSeek(t => ...) or the clock (requestAnimationFrame, timers)",
      'index.html:9:27  warning  foreign-seek-event  the "hf-seek" event of the other renderer never fires here: use __compose.onSeek(t => ...) or the clock (requestAnimationFrame, timers)',
      "0 errors, 5 warnings in 1 file",
    ]);
  });
});
