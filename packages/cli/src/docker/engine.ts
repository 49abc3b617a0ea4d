import type { PackageManager } from "../doctor/install-command.js";
import { firstLine, runTool } from "../doctor/run-tool.js";

/**
 * What `docker version` says about this machine: the one probe behind both `compose doctor`'s
 * docker line and `compose render --docker`'s refusal, so the two never disagree.
 */
export type DockerEngineStatus =
  /** The client answered and reached an engine. */
  | { state: "ready"; clientVersion: string; engineVersion: string }
  /** No `docker` program could be started (`startError`: ENOENT, EACCES...). */
  | { state: "no-client"; startError: string }
  /** The client runs, but no engine answered: daemon stopped, socket not permitted, DOCKER_HOST unreachable. */
  | { state: "unreachable"; clientVersion: string | undefined; reason: string; permissionDenied: boolean };

export interface ProbeOptions {
  /** The docker client; default `docker` on PATH. */
  program?: string;
  /** How long the engine may take to answer. */
  timeoutMs?: number;
}

interface VersionJson {
  Client?: { Version?: string } | null;
  Server?: { Version?: string } | null;
}

/** `docker version --format '{{json .}}'` prints one JSON object even when the engine is missing (Server: null). */
function parseVersionJson(stdout: string): VersionJson {
  const line = firstLine(stdout);
  if (!line.startsWith("{")) return {};
  try {
    return JSON.parse(line) as VersionJson;
  } catch {
    return {};
  }
}

/**
 * Asks the docker client for its version and its engine's, in one call. The engine counts as
 * reachable when the client exits 0: docker exits 1 when it cannot reach its daemon (and clients
 * that have none to reach, such as podman's docker shim, exit 0).
 */
export async function probeDockerEngine(options: ProbeOptions = {}): Promise<DockerEngineStatus> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const run = await runTool(options.program ?? "docker", ["version", "--format", "{{json .}}"], timeoutMs);
  if (!run.started) return { state: "no-client", startError: run.startError ?? "not startable" };
  const parsed = parseVersionJson(run.stdout);
  const clientVersion = parsed.Client?.Version || undefined;
  if (run.code === 0) {
    return { state: "ready", clientVersion: clientVersion ?? "unknown version", engineVersion: parsed.Server?.Version || "unknown version" };
  }
  const reason = run.timedOut
    ? `no answer within ${Math.round(timeoutMs / 1000)} s`
    : firstLine(run.stderr.replace(/^ERROR:\s*/m, "")) || `docker version exited with code ${run.code}`;
  return { state: "unreachable", clientVersion, reason, permissionDenied: /permission denied/i.test(run.stderr) };
}

const DOCKER_INSTALL_URL = "https://docs.docker.com/engine/install/";

/** The command or step that gives this machine a docker client. */
export function installDockerFix(manager: PackageManager): string {
  switch (manager) {
    case "apt":
      return `sudo apt-get install docker.io (or Docker Engine: ${DOCKER_INSTALL_URL})`;
    case "brew":
      return "brew install --cask docker";
    default:
      return `install Docker Engine: ${DOCKER_INSTALL_URL}`;
  }
}

/** What is wrong and the step that fixes it, worded once for doctor and render --docker. */
export function describeEngineProblem(status: Exclude<DockerEngineStatus, { state: "ready" }>, manager: PackageManager): { problem: string; fix: string } {
  if (status.state === "no-client") {
    return { problem: "the docker command was not found on PATH", fix: installDockerFix(manager) };
  }
  if (status.permissionDenied) {
    return {
      problem: `no reachable Docker engine (${status.reason})`,
      fix: "let your user use the Docker socket: sudo usermod -aG docker $USER, then log in again",
    };
  }
  return {
    problem: `no reachable Docker engine (${status.reason})`,
    fix: manager === "brew" ? "start Docker Desktop (open -a Docker)" : "start the Docker daemon (sudo systemctl start docker)",
  };
}

/**
 * The one line a command that needs Docker prints (after "error: ") when it cannot use it;
 * `orElse` is what the user can do without Docker (null: nothing, as for building the image).
 */
export function engineErrorLine(
  status: Exclude<DockerEngineStatus, { state: "ready" }>,
  manager: PackageManager,
  orElse: string | null = "render without --docker",
): string {
  const { problem, fix } = describeEngineProblem(status, manager);
  return `docker: ${problem}: ${fix}${orElse === null ? "" : `, or ${orElse}`}`;
}
