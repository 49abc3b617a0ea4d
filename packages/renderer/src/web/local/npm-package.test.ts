import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalWeb } from "./local-resolver.js";
import { findPackage, lookupDirs, lookUpPackage, readPackageFile } from "./npm-package.js";

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

describe("a package that is a link", () => {
  let base: string;
  const project = () => join(base, "parent", "project");
  const SECRET_URL = "https://cdn.jsdelivr.net/npm/linkpkg@2.0.0/secret.txt";

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), "compose-linked-package-"));
    const write = async (dir: string, name: string, version: string, file: string, text: string) => {
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, "package.json"), JSON.stringify({ name, version }));
      await writeFile(join(dir, file), text);
    };
    await write(join(base, "outside", "linkpkg"), "linkpkg", "2.0.0", "secret.txt", "outside the project");
    await write(join(project(), "packages", "workspace"), "workspace", "1.0.0", "index.js", "export const inside = true;");
    await write(join(base, "parent", "libs", "parentpkg"), "parentpkg", "3.0.0", "index.js", "export const parent = true;");
    await mkdir(join(project(), "node_modules"), { recursive: true });
    await mkdir(join(base, "parent", "node_modules"));
    await symlink(join(base, "outside", "linkpkg"), join(project(), "node_modules", "linkpkg"));
    await symlink("../packages/workspace", join(project(), "node_modules", "workspace"));
    await symlink(join(base, "outside", "linkpkg"), join(base, "parent", "node_modules", "outpkg"));
    await symlink("../libs/parentpkg", join(base, "parent", "node_modules", "parentpkg"));
  });
  afterAll(() => rm(base, { recursive: true, force: true }));

  it("is refused when it leads out of the project, and a CDN URL of it is not answered from the folder it leads to", async () => {
    expect(await lookUpPackage({ root: project(), parents: false }, "linkpkg")).toEqual({
      refused: "node_modules/linkpkg/package.json is a symbolic link that leads out of the project; only regular files inside the project are read",
    });
    const web = createLocalWeb({ root: project(), parents: false });
    expect(await web.resolve(SECRET_URL)).toBeUndefined();
    expect(await web.remedy(SECRET_URL)).toMatch(/^the project cannot serve it: node_modules\/linkpkg\/package.json is a symbolic link that leads out/);
  });

  it("is read when it leads to a workspace inside the project", async () => {
    const pkg = await findPackage({ root: project(), parents: false }, "workspace");
    expect(pkg).toMatchObject({ name: "workspace", version: "1.0.0", dir: join(await realpath(project()), "packages", "workspace") });
    const answer = await createLocalWeb({ root: project(), parents: false }).resolve("https://cdn.jsdelivr.net/npm/workspace@1.0.0/index.js");
    expect(answer?.body.toString()).toBe("export const inside = true;");
  });

  it("in a parent folder's node_modules, may lead anywhere inside that folder, never out of it", async () => {
    const lookup = { root: project(), parents: true };
    expect(await findPackage(lookup, "outpkg")).toBeUndefined();
    expect((await findPackage(lookup, "parentpkg"))?.version).toBe("3.0.0");
  });
});
