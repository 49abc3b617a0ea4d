/**
 * What the preview server hands out and starts, probed over HTTP as another program on the machine
 * could: only the project files render would load, and one render at a time with its own id.
 */
import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCli, type CliRun } from "../support/cli.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";

let project: TempProject;
let outside: TempProject;
let preview: CliRun;
let url: string;

beforeAll(async () => {
  project = await createProject(
    { "index.html": compositionHtml({ id: "main", duration: 1 }), "logo.txt": "inside", ".env": "SECRET=1", "assets/inner.txt": "inner" },
    { prefix: "compose-preview-files-" },
  );
  outside = await createProject({ "secret.txt": "outside", "page.html": "<p>outside</p>" }, { prefix: "compose-preview-outside-" });
  await symlink("/etc/passwd", join(project.dir, "pw.txt"));
  await symlink(join(outside.dir, "secret.txt"), join(project.dir, "secret.txt"));
  await symlink(join(outside.dir, "page.html"), join(project.dir, "page.html"));
  await symlink(outside.dir, join(project.dir, "elsewhere"));
  await symlink("logo.txt", join(project.dir, "alias.txt"));
  await mkdir(join(project.dir, ".hidden"));
  await writeFile(join(project.dir, ".hidden", "x.txt"), "hidden");
  preview = startCli(["preview", project.dir, "--port", "0"], { timeoutMs: 300_000 });
  url = await preview.waitForStdout(/http:\/\/127\.0\.0\.1:\d+\//);
}, 60_000);

afterAll(async () => {
  preview?.child.kill("SIGTERM");
  await preview?.result;
  await project?.remove();
  await outside?.remove();
});

const statusOf = async (path: string) => (await fetch(new URL(path, url))).status;

describe("the preview serves what render would load", () => {
  it("serves the project's files, a link that stays inside included", async () => {
    expect(await (await fetch(new URL("logo.txt", url))).text()).toBe("inside");
    expect(await (await fetch(new URL("alias.txt", url))).text()).toBe("inside");
    expect(await (await fetch(new URL("assets/inner.txt", url))).text()).toBe("inner");
  });

  it("refuses links that leave the project, dotfiles and folders", async () => {
    expect(await statusOf("pw.txt")).toBe(404);
    expect(await statusOf("secret.txt")).toBe(404);
    expect(await statusOf("page.html")).toBe(404);
    expect(await statusOf("elsewhere/secret.txt")).toBe(404);
    expect(await statusOf(".env")).toBe(404);
    expect(await statusOf(".hidden/x.txt")).toBe(404);
    expect(await statusOf("%2e%2e/%2e%2e/etc/passwd")).toBe(404);
    expect(await statusOf("assets/")).toBe(404);
  });
});

describe("renders from the page", () => {
  it("runs one at a time: of four requests at once, one starts and three are refused with a message", async () => {
    const post = (path: string, body: unknown) =>
      fetch(new URL(path, url), { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    const answers = await Promise.all([1, 2, 3, 4].map(() => post("/__compose/renders", { format: "mp4", quality: "draft", workers: 1 })));
    const bodies = await Promise.all(
      answers.map(async (answer) => ({ status: answer.status, body: (await answer.json()) as { id?: string; error?: { code: string; message: string } } })),
    );
    const started = bodies.filter((answer) => answer.status === 202);
    expect(started).toHaveLength(1);
    const refused = bodies.filter((answer) => answer.status === 409);
    expect(refused).toHaveLength(3);
    for (const answer of refused)
      expect(answer.body.error).toEqual({
        code: "render-running",
        message: `render ${started[0]!.body.id} is running: wait for it to finish or cancel it, then render again`,
      });
    expect((await post(`/__compose/renders/${started[0]!.body.id}/cancel`, {})).status).toBe(202);
  }, 60_000);
});
