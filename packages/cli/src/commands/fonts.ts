import type { Command } from "commander";
import { spawn } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { familySlug } from "@compose/core/text";
import { UsageError } from "../usage-error.js";

/** Runs npm in `cwd` with the terminal's output; resolves to its exit code, or the reason it could not start. */
function npm(args: string[], cwd: string): Promise<number | string> {
  return new Promise((done) => {
    const child = spawn("npm", args, { cwd, stdio: ["ignore", "inherit", "inherit"] });
    child.once("error", (error: NodeJS.ErrnoException) => done(error.code ?? error.message));
    child.once("close", (code) => done(code ?? 1));
  });
}

export function registerFonts(program: Command): void {
  const fonts = program.command("fonts").description("Manage the font families a project ships with.");
  fonts
    .command("add")
    .description("Add Google Fonts families to the project as npm packages (@fontsource), so that renders draw them without the network.")
    .argument("<family...>", 'family names as Google Fonts writes them ("Space Mono") or as packages do (space-mono)')
    .option("--variable", "the variable font (@fontsource-variable/<family>): one file for every weight")
    .option("--dir <path>", "the project directory", ".")
    .action(async (families: string[], options: { variable?: boolean; dir: string }) => {
      const dir = resolve(options.dir);
      if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`--dir ${options.dir} is not a directory`);
      const scope = options.variable ? "@fontsource-variable" : "@fontsource";
      const packages = families.map((family) => {
        const slug = familySlug(family);
        if (slug === "") throw new UsageError(`"${family}" is not a font family name: give one such as "Space Mono"`);
        return `${scope}/${slug}`;
      });
      // npm installs into the nearest folder with a package.json: the project's own, made here when it has none.
      if (!existsSync(join(dir, "package.json"))) await writeFile(join(dir, "package.json"), `${JSON.stringify({ private: true }, null, 2)}\n`);
      const outcome = await npm(["install", "--save", "--no-fund", "--no-audit", ...packages], dir);
      if (typeof outcome === "string") {
        process.stderr.write(`error: npm could not be started (${outcome}): install Node.js with npm, or run npm install ${packages.join(" ")} in ${dir}\n`);
        process.exitCode = 1;
      } else if (outcome !== 0) {
        process.stderr.write(`error: npm could not install ${packages.join(" ")}: check the family names (Google Fonts names such as "Space Mono")\n`);
        process.exitCode = 1;
      } else {
        process.stdout.write(
          `Added ${packages.join(", ")} to ${dir}: renders of this project draw ${families.length > 1 ? "these families" : "this family"} from it, offline.\n`,
        );
      }
    });
}
