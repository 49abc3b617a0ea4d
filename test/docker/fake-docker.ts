import { chmod, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLI_BIN } from "../support/cli.js";

/** What `docker version` prints on stderr when its daemon is not running. */
export const NO_DAEMON_MESSAGE = "Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?";

export type FakeDockerKind =
  /** A client whose daemon is not running: every command fails the way docker 28's do. */
  | "no-daemon"
  /** A client whose socket the user may not open. */
  | "permission-denied"
  /**
   * A working engine, emulated on this machine: with FAKE_DOCKER_IMAGE=present it has one image,
   * FAKE_DOCKER_TAG with the labels FAKE_DOCKER_LABELS (JSON), which `image ls` and `image
   * inspect` show; `build` succeeds (unless FAKE_DOCKER_BUILD=unreachable: then it fails as
   * where snapshot.debian.org does not answer), and an image's /compose/versions is FAKE_DOCKER_VERSIONS;
   * `run` runs the container's command with this repository's CLI, mounts translated back to
   * their host sources, in --workdir with --env.
   * It cannot isolate anything or prove the image's contents; it proves the command line.
   */
  | "engine";

export interface FakeDocker {
  /** Directory holding the `docker` program: put it (alone) on PATH. */
  dir: string;
  /** Every call's arguments, in order. */
  calls(): Promise<string[][]>;
  remove(): Promise<void>;
}

const NO_DAEMON = `
const command = args[0];
if (command === "version") {
  process.stdout.write(JSON.stringify({ Client: { Version: "28.2.2", ApiVersion: "1.50" }, Server: null }) + "\\n");
}
process.stderr.write(${JSON.stringify(NO_DAEMON_MESSAGE)} + "\\n");
process.exit(1);
`;

const PERMISSION_DENIED = `
process.stderr.write("permission denied while trying to connect to the Docker daemon socket at unix:///var/run/docker.sock: Get \\"http://%2Fvar%2Frun%2Fdocker.sock/v1.50/version\\": dial unix /var/run/docker.sock: connect: permission denied\\n");
process.exit(1);
`;

const ENGINE = `
const { spawn } = require("node:child_process");
const { existsSync } = require("node:fs");
const command = args[0];
if (command === "version") {
  process.stdout.write(JSON.stringify({ Client: { Version: "28.2.2" }, Server: { Version: "28.2.2" } }) + "\\n");
  process.exit(0);
}
const present = process.env.FAKE_DOCKER_IMAGE === "present";
if (command === "image" && args[1] === "ls") {
  if (present) process.stdout.write(process.env.FAKE_DOCKER_TAG + "\\n");
  process.exit(0);
}
if (command === "image" && args[1] === "inspect") {
  if (present && args.at(-1) === process.env.FAKE_DOCKER_TAG) { process.stdout.write(process.env.FAKE_DOCKER_LABELS + "\\n"); process.exit(0); }
  process.stderr.write("Error response from daemon: No such image: " + args.at(-1) + "\\n");
  process.exit(1);
}
if (command === "image" && args[1] === "rm") process.exit(0);
if (command === "build" && process.env.FAKE_DOCKER_BUILD === "unreachable") {
  process.stderr.write("E: Failed to fetch http://snapshot.debian.org/archive/debian/20261121T000000Z/dists/bookworm/InRelease  Could not resolve 'snapshot.debian.org'\\n");
  process.exit(1);
}
if (command === "build") {
  process.stderr.write("#0 building with \\"default\\" instance using docker driver (fake)\\n");
  process.exit(0);
}
if (command === "run" && args.includes("--entrypoint=cat")) {
  process.stdout.write(process.env.FAKE_DOCKER_VERSIONS ?? "");
  process.exit(0);
}
if (command !== "run") { process.stderr.write("fake docker: unexpected command " + command + "\\n"); process.exit(125); }

// docker run [--option=value | --switch]... IMAGE COMMAND...
let i = 1;
const mounts = [];
const env = {};
let workdir = process.cwd();
for (; i < args.length && args[i].startsWith("-"); i++) {
  const [name, ...rest] = args[i].split("=");
  const value = rest.join("=");
  if (name === "--mount") {
    const fields = Object.fromEntries(value.split(",").map((field) => [field.split("=")[0], field.split("=").slice(1).join("=")]));
    mounts.push({ source: fields.source, target: fields.target });
  } else if (name === "--workdir") workdir = value;
  else if (name === "--env") env[value.split("=")[0]] = value.split("=").slice(1).join("=");
}
const inner = args.slice(i + 1);
if (inner[0] !== "render") { process.stderr.write("fake docker: the image's entry point is compose; got " + inner[0] + "\\n"); process.exit(125); }
const hostPath = (arg) => {
  for (const { source, target } of mounts) {
    for (const prefix of ["", "--output=", "--variables-file="]) {
      if (arg === prefix + target || arg.startsWith(prefix + target + "/")) return prefix + source + arg.slice(prefix.length + target.length);
    }
  }
  return arg;
};
const child = spawn(process.execPath, [${JSON.stringify(CLI_BIN)}, ...inner.map(hostPath)], {
  cwd: existsSync(workdir) ? workdir : process.cwd(),
  env: { ...process.env, ...env },
  stdio: "inherit",
});
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => child.kill(signal));
child.on("close", (code, signal) => process.exit(code ?? 128 + require("node:os").constants.signals[signal]));
`;

const BODIES: Record<FakeDockerKind, string> = { "no-daemon": NO_DAEMON, "permission-denied": PERMISSION_DENIED, engine: ENGINE };

/** A `docker` program (a Node.js script run by this Node.js) that records its calls and acts as `kind`. */
export async function createFakeDocker(kind: FakeDockerKind): Promise<FakeDocker> {
  const dir = await mkdtemp(join(tmpdir(), "compose-fake-docker-"));
  const log = join(dir, "calls.jsonl");
  const program = join(dir, "docker");
  await writeFile(
    program,
    `#!${process.execPath}
const args = process.argv.slice(2);
require("node:fs").appendFileSync(${JSON.stringify(log)}, JSON.stringify(args) + "\\n");
${BODIES[kind]}`,
  );
  await chmod(program, 0o755);
  return {
    dir,
    async calls() {
      try {
        return (await readFile(log, "utf8"))
          .trim()
          .split("\n")
          .filter(Boolean)
          .map((line) => JSON.parse(line) as string[]);
      } catch {
        return [];
      }
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
