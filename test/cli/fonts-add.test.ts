/**
 * `compose fonts add <family>` installs the family's @fontsource package into the project with
 * npm (here a stand-in npm on PATH that records what it was asked), making a package.json for a
 * project that has none; a failing npm is one line and exit 1.
 */
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { createProject, type TempProject } from "../support/project.js";

let project: TempProject;

beforeAll(async () => {
  project = await createProject({ "site/index.html": "<html></html>" });
  await mkdir(project.path("bin"));
  // Records its arguments and working directory; fails when asked for a package named nowhere.
  await writeFile(
    project.path("bin", "npm"),
    `#!/bin/sh\necho "$PWD $*" >> "${project.path("npm.log")}"\ncase "$*" in *nowhere*) echo "404 Not Found" >&2; exit 1;; esac\n`,
  );
  await chmod(project.path("bin", "npm"), 0o755);
});

afterAll(async () => {
  await project?.remove();
});

const env = () => ({ PATH: `${project.path("bin")}:${process.env.PATH}` });

describe("compose fonts add", () => {
  it("installs each family's package into the project, with a package.json of its own", async () => {
    const run = await runCli(["fonts", "add", "Space Mono", "inter", "--dir", project.path("site")], { env: env() });
    expect(run.code, run.stderr).toBe(0);
    expect(await readFile(project.path("npm.log"), "utf8")).toBe(
      `${project.path("site")} install --save --no-fund --no-audit @fontsource/space-mono @fontsource/inter\n`,
    );
    expect(JSON.parse(await readFile(project.path("site", "package.json"), "utf8"))).toEqual({ private: true });
    expect(run.stdout).toContain("Added @fontsource/space-mono, @fontsource/inter");
  });

  it("installs the variable font with --variable", async () => {
    const run = await runCli(["fonts", "add", "Inter", "--variable", "--dir", project.path("site")], { env: env() });
    expect(run.code, run.stderr).toBe(0);
    expect(await readFile(project.path("npm.log"), "utf8")).toContain("install --save --no-fund --no-audit @fontsource-variable/inter\n");
  });

  it("says in one line that npm could not install a family", async () => {
    const run = await runCli(["fonts", "add", "Nowhere Sans", "--dir", project.path("site")], { env: env() });
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split("\n").at(-1)).toBe(
      'error: npm could not install @fontsource/nowhere-sans: check the family names (Google Fonts names such as "Space Mono")',
    );
  });

  it("refuses a directory that is not one", async () => {
    const run = await runCli(["fonts", "add", "Inter", "--dir", project.path("missing")], { env: env() });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`error: --dir ${project.path("missing")} is not a directory\n`);
  });
});
