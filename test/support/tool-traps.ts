import { chmod, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Stand-ins for the browser and ffmpeg that only record that they were started (and then fail).
 * Pointing COMPOSE_BROWSER and COMPOSE_FFMPEG at them proves a command never got as far as
 * starting either tool.
 */
export interface ToolTraps {
  env: { COMPOSE_BROWSER: string; COMPOSE_FFMPEG: string };
  /** Names of the tools started so far ("browser", "ffmpeg"), one entry per start. */
  started(): Promise<string[]>;
  remove(): Promise<void>;
}

export async function createToolTraps(): Promise<ToolTraps> {
  const dir = await mkdtemp(join(tmpdir(), "compose-traps-"));
  const marks = join(dir, "marks");
  const trap = async (name: string) => {
    const file = join(dir, name);
    await writeFile(file, `#!/bin/sh\nmkdir -p '${marks}'\n: > "${marks}/${name}-$$"\nexit 1\n`);
    await chmod(file, 0o755);
    return file;
  };
  const env = { COMPOSE_BROWSER: await trap("browser"), COMPOSE_FFMPEG: await trap("ffmpeg") };
  return {
    env,
    async started() {
      try {
        return (await readdir(marks)).map((name) => name.replace(/-\d+$/, "")).sort();
      } catch {
        return [];
      }
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
