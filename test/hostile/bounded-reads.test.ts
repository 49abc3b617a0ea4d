/**
 * Every file compose reads of a project is a regular file inside it, read with a size cap: a FIFO
 * (which would block a read forever), a link out of the project and a 400 MB sub-composition are
 * refused at once with the project-file rule's code, by lint and by render alike.
 */
import { execFileSync } from "node:child_process";
import { open, symlink } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { render, runCli } from "../support/cli.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";

let project: TempProject;

const host = (src: string) => `<div data-composition-id="card" data-composition-src="${src}" data-start="0" data-track-index="1"></div>`;
const card = compositionHtml({ id: "card", duration: 0.2 });

beforeAll(async () => {
  project = await createProject({
    "fifo/index.html": compositionHtml({ id: "fifo", duration: 0.2, body: host("card.html") }),
    "out/index.html": compositionHtml({ id: "out", duration: 0.2, body: host("card.html") }),
    "huge/index.html": compositionHtml({ id: "huge", duration: 0.2, body: host("card.html") }),
    "vars/index.html": card,
  });
  execFileSync("mkfifo", [project.path("fifo", "card.html"), project.path("vars", "values.json"), project.path("entry.html")]);
  await symlink("/etc/passwd", project.path("out", "card.html"));
  // Sparse: 400 MB that take no disk and no time to write.
  const huge = await open(project.path("huge", "card.html"), "w");
  await huge.truncate(400 * 1024 * 1024);
  await huge.close();
});

afterAll(() => project?.remove());

const RULE = "not-a-project-file";

describe("bounded reads of project files", () => {
  it.each([
    ["fifo", "card.html is a FIFO (named pipe); only regular files inside the project are read"],
    ["out", "card.html is a symbolic link that leads out of the project"],
    ["huge", "card.html is 400 MiB; a project file read as text may be at most 32 MiB"],
  ])("lint and render refuse the %s sub-composition at once with the rule's code", async (name, reason) => {
    const lint = await runCli(["lint", name], { cwd: project.dir, timeoutMs: 20_000 });
    expect(lint.timedOut).toBe(false);
    expect(lint.code, lint.stderr).toBe(1);
    expect(lint.stdout).toContain(`error  ${RULE}  host "card" embeds "card.html", which is refused: ${name}/${reason}`);
    const rendered = await render([name, "-o", project.path(`${name}.mp4`)], { cwd: project.dir, timeoutMs: 20_000 });
    expect(rendered.timedOut).toBe(false);
    expect(rendered.code, rendered.stderr).toBe(1);
    expect(rendered.stderr).toContain(`error: [${RULE}] host "card" embeds "card.html", which is refused: ${reason}`);
  });

  it("a FIFO named as the entry or as --variables-file is a usage error, at once", async () => {
    const entry = await runCli(["lint", "entry.html"], { cwd: project.dir, timeoutMs: 20_000 });
    expect(entry.code, entry.stderr).toBe(2);
    expect(entry.stderr.trim()).toBe(`error: [${RULE}] entry.html is a FIFO (named pipe); only regular files inside the project are read`);
    const vars = await render(["vars", "--variables-file", "vars/values.json", "-o", project.path("v.mp4")], { cwd: project.dir, timeoutMs: 20_000 });
    expect(vars.code, vars.stderr).toBe(2);
    expect(vars.stderr.trim()).toBe(
      `error: [${RULE}] --variables-file vars/values.json is a FIFO (named pipe); only regular files inside the project are read`,
    );
  });
});
