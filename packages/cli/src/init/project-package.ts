import type { Template } from "./templates.js";

/** The scripts every project gets: the commands that check and render it. */
const SCRIPTS = {
  render: "compose render .",
  lint: "compose lint .",
  preview: "compose preview .",
};

/**
 * npm's rules for a package name: lower case, no spaces, no leading dot or underscore. The folder's
 * name made to fit them, or "composition" when nothing of it does.
 */
export function packageName(folderName: string): string {
  const name = folderName
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, "-")
    .replace(/^[._-]+|-+$/g, "")
    .slice(0, 214);
  return name === "" ? "composition" : name;
}

/** The package.json of a new project: private, its scripts, and the packages its template uses. */
export function projectPackageJson(folderName: string, template: Template): string {
  const pkg = { name: packageName(folderName), private: true, scripts: SCRIPTS, dependencies: template.dependencies };
  return `${JSON.stringify(pkg, null, 2)}\n`;
}
