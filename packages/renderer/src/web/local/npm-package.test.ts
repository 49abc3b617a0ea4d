import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findPackage, lookupDirs, readPackageFile } from "./npm-package.js";

describe("lookupDirs", () => {
  it("searches the project alone, or with parents every folder above it as Node does", () => {
    expect(lookupDirs({ root: "/srv/projects/a", parents: false })).toEqual(["/srv/projects/a"]);
    expect(lookupDirs({ root: "/srv/projects/a", parents: true })).toEqual(["/srv/projects/a", "/srv/projects", "/srv", "/"]);
  });
});

describe("a package's files", () => {
  let project: string;
  beforeAll(async () => {
    project = await mkdtemp(join(tmpdir(), "compose-package-"));
    const pkg = join(project, "node_modules", "lib");
    await mkdir(join(pkg, "dist"), { recursive: true });
    await writeFile(join(pkg, "package.json"), JSON.stringify({ name: "lib", version: "1.2.3" }));
    await writeFile(join(pkg, "dist", "lib.js"), "export {};");
    execFileSync("mkfifo", [join(pkg, "dist", "piped.js")]);
    await symlink("/etc/hostname", join(pkg, "dist", "out.js"));
    await mkdir(join(project, "node_modules", "piped"));
    execFileSync("mkfifo", [join(project, "node_modules", "piped", "package.json")]);
  });
  afterAll(() => rm(project, { recursive: true, force: true }));

  it("are read when they are regular files inside the package", async () => {
    const pkg = await findPackage({ root: project, parents: false }, "lib");
    expect(pkg).toMatchObject({ name: "lib", version: "1.2.3" });
    expect((await readPackageFile(pkg!, "dist/lib.js"))?.toString()).toBe("export {};");
  });

  it("are never waited on or followed out when they are FIFOs or links out of the package", async () => {
    const pkg = (await findPackage({ root: project, parents: false }, "lib"))!;
    expect(await readPackageFile(pkg, "dist/piped.js")).toBeUndefined();
    expect(await readPackageFile(pkg, "dist/out.js")).toBeUndefined();
    expect(await findPackage({ root: project, parents: false }, "piped")).toBeUndefined();
  });
});
