import { constants } from "node:fs";
import { copyFile, mkdir, readdir, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { projectPackageJson } from "./project-package.js";
import { AGENTS_FILE, MANIFEST, type Template } from "./templates.js";

/** Renders and installed packages are made from the project, not part of it. */
const GITIGNORE = "node_modules/\nrenders/\n";

/**
 * Writes a new project into `dir` (made if missing): the template's files, a package.json, a
 * .gitignore and AGENTS.md. Never replaces a file. Returns the paths written, relative to `dir`.
 */
export async function writeProject(dir: string, template: Template): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const written: string[] = [];
  for (const file of await templateFiles(template)) {
    await mkdir(dirname(join(dir, file)), { recursive: true });
    await copyFile(join(template.dir, file), join(dir, file), constants.COPYFILE_EXCL);
    written.push(file);
  }
  await writeFile(join(dir, "package.json"), projectPackageJson(basename(dir), template), { flag: "wx" });
  await writeFile(join(dir, ".gitignore"), GITIGNORE, { flag: "wx" });
  await writeAgentsFile(dir);
  return [...written, "package.json", ".gitignore", "AGENTS.md"];
}

/** Adds AGENTS.md to `dir`; false when it has one already, which is left as it is. */
export async function writeAgentsFile(dir: string): Promise<boolean> {
  try {
    await copyFile(AGENTS_FILE, join(dir, "AGENTS.md"), constants.COPYFILE_EXCL);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}

/** The template's files, relative to its folder, in a stable order: all but its manifest. */
async function templateFiles(template: Template): Promise<string[]> {
  const files = await filesUnder(template.dir);
  return files.filter((file) => file !== MANIFEST).sort();
}

async function filesUnder(dir: string, prefix = ""): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(join(dir, prefix), { withFileTypes: true })) {
    const path = join(prefix, entry.name);
    if (entry.isDirectory()) files.push(...(await filesUnder(dir, path)));
    else if (entry.isFile()) files.push(path);
  }
  return files;
}
