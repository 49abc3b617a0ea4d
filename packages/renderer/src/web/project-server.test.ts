import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveProject, type ProjectServer } from "./project-server.js";

let base: string;
let server: ProjectServer;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "compose-project-server-"));
  const project = join(base, "project");
  const outside = join(base, "outside");
  await mkdir(join(project, "assets"), { recursive: true });
  await mkdir(join(project, ".git"), { recursive: true });
  await mkdir(outside);
  await writeFile(join(project, "index.html"), "<p>composition</p>");
  await writeFile(join(project, "assets", "logo.svg"), "<svg/>");
  await writeFile(join(project, ".env"), "SECRET=1");
  await writeFile(join(project, ".git", "config"), "[core]");
  await writeFile(join(outside, "secret.txt"), "outside the project");
  await symlink(join(outside, "secret.txt"), join(project, "secret.txt"));
  await symlink(outside, join(project, "elsewhere"));
  await symlink("/etc", join(project, "etc"));
  await symlink(join(project, "assets", "logo.svg"), join(project, "logo-link.svg"));
  server = await serveProject(project, { read: async () => undefined });
}, 30_000);

afterAll(async () => {
  await server?.close();
  await rm(base, { recursive: true, force: true });
});

async function get(path: string): Promise<{ status: number; body: string }> {
  const response = await fetch(server.baseUrl + path);
  return { status: response.status, body: await response.text() };
}

describe("the project file server", () => {
  it("serves the project's regular files, and links that stay inside the project", async () => {
    expect(await get("index.html")).toEqual({ status: 200, body: "<p>composition</p>" });
    expect(await get("assets/logo.svg")).toEqual({ status: 200, body: "<svg/>" });
    expect(await get("logo-link.svg")).toEqual({ status: 200, body: "<svg/>" });
  });

  it("refuses symbolic links that lead out of the project: a file, a directory, /etc", async () => {
    expect((await get("secret.txt")).status).toBe(404);
    expect((await get("elsewhere/secret.txt")).status).toBe(404);
    expect((await get("etc/passwd")).status).toBe(404);
    expect((await get("etc/hostname")).body).not.toContain("\n");
  });

  it("refuses dotfiles and dot-directories, also percent-encoded", async () => {
    expect((await get(".env")).status).toBe(404);
    expect((await get(".git/config")).status).toBe(404);
    expect((await get("%2eenv")).status).toBe(404);
    expect((await get("assets/..%2f.env")).status).toBe(404);
  });

  it("lists no directory and serves no index for one", async () => {
    expect((await get("")).status).toBe(404);
    expect((await get("assets/")).status).toBe(404);
    expect((await get("assets")).status).toBe(404);
  });

  it("refuses paths that climb out with ..", async () => {
    const response = await fetch(`${server.baseUrl}..%2foutside/secret.txt`);
    expect(response.status).toBe(404);
  });
});
