import type { Command } from "commander";
import { resolve } from "node:path";
import { inspectTarget } from "../init/target-directory.js";
import { findTemplate, listTemplates } from "../init/templates.js";
import { writeAgentsFile, writeProject } from "../init/write-project.js";
import { UsageError } from "../usage-error.js";

const DEFAULT_TEMPLATE = "blank";

export function registerInit(program: Command): void {
  program
    .command("init")
    .description(
      "Start a project from a template: its composition, a package.json with its fonts and libraries, a .gitignore, and AGENTS.md (the composition rules, for coding agents). In a folder that holds a project already, only adds AGENTS.md.",
    )
    .argument("[dir]", "a new or empty directory", ".")
    .option("-t, --template <name>", "the template to start from (--list shows them)", DEFAULT_TEMPLATE)
    .option("--list", "list the templates")
    .action(async (dirArg: string, options: { template: string; list?: boolean }, command: Command) => {
      if (options.list) {
        const templates = await listTemplates();
        const width = Math.max(...templates.map((template) => template.name.length));
        for (const template of templates) process.stdout.write(`${template.name.padEnd(width)}  ${template.description}\n`);
        return;
      }
      const template = await findTemplate(options.template);
      const dir = resolve(dirArg);
      const target = await inspectTarget(dir, dirArg);
      if (target.kind === "project") {
        const holds = `${dirArg} holds a project already (${target.marker})`;
        if (command.getOptionValueSource("template") !== "default")
          throw new UsageError(`${holds}: --template writes a new project, into a new or empty directory`);
        const wrote = await writeAgentsFile(dir);
        process.stdout.write(
          wrote ? `${holds}: wrote AGENTS.md only (the composition rules, for coding agents)\n` : `${holds} and its AGENTS.md: nothing written\n`,
        );
        return;
      }
      const written = await writeProject(dir, template);
      const next = [...(dirArg === "." ? [] : [`cd ${shellWord(dirArg)}`]), "npm install", "npm run render"];
      process.stdout.write(
        `Wrote a ${template.name} project in ${dirArg}:\n${written.map((file) => `  ${file}\n`).join("")}Next:\n${next.map((step) => `  ${step}\n`).join("")}`,
      );
    });
}

/** `path` as a shell reads it back: quoted when it holds anything but plain path characters. */
function shellWord(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replaceAll("'", `'\\''`)}'`;
}
