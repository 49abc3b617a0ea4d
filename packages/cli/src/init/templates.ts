import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { cliPackageFile } from "../package-dir.js";
import { UsageError } from "../usage-error.js";

/** The templates ship in the CLI package's templates/ folder, read at run time. */
const TEMPLATES_DIR = cliPackageFile("templates");

/** The notes for coding agents that every project gets: one text, kept beside the templates. */
export const AGENTS_FILE = join(TEMPLATES_DIR, "AGENTS.md");

/** What a template's folder holds besides the files it gives a project. */
export const MANIFEST = "template.json";

export interface Template {
  name: string;
  /** One line for `compose init --list`. */
  description: string;
  /** The npm packages the template's files use, at exact versions: the project's package.json names them. */
  dependencies: Record<string, string>;
  /** The folder whose files (all but the manifest) the project starts from. */
  dir: string;
}

/** Every template: each folder of templates/ with a manifest, by name. */
export async function listTemplates(): Promise<Template[]> {
  const entries = await readdir(TEMPLATES_DIR, { withFileTypes: true });
  const names = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  return Promise.all(names.map(readTemplate));
}

/** The template called `name`; an unknown name is a usage error that lists the templates. */
export async function findTemplate(name: string): Promise<Template> {
  const templates = await listTemplates();
  const found = templates.find((template) => template.name === name);
  if (found === undefined) throw new UsageError(`unknown template "${name}": choose ${templates.map((template) => template.name).join(", ")}`);
  return found;
}

async function readTemplate(name: string): Promise<Template> {
  const dir = join(TEMPLATES_DIR, name);
  const manifest = JSON.parse(await readFile(join(dir, MANIFEST), "utf8")) as Pick<Template, "description" | "dependencies">;
  return { name, description: manifest.description, dependencies: manifest.dependencies, dir };
}
