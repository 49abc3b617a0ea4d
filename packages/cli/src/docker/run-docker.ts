import { spawn } from "node:child_process";
import { constants } from "node:os";

export interface DockerExit {
  /** Exit code; 128 + n when a signal ended the client. */
  code: number;
  /** True when this process forwarded Ctrl-C (or a termination signal) to it. */
  interrupted: boolean;
}

/** Where docker's stdout or stderr goes: this process's own (inherit), its stderr (2), or nowhere. */
type Output = "inherit" | "ignore" | 2;

export interface DockerRunOptions {
  stdout: Output;
  stderr: Output;
  /** Written to docker's stdin (else it reads nothing). */
  input?: string;
  env?: NodeJS.ProcessEnv;
}

/**
 * Runs docker to completion. The client runs in its own process group and this process forwards
 * Ctrl-C and termination to it exactly once per signal: docker passes them on to the container
 * (or the build), which stops as a local render does.
 */
export function runDocker(args: string[], options: DockerRunOptions): Promise<DockerExit> {
  return new Promise((resolvePromise) => {
    let interrupted = false;
    const child = spawn("docker", args, {
      stdio: [options.input === undefined ? "ignore" : "pipe", options.stdout, options.stderr],
      env: options.env ?? process.env,
      detached: process.platform !== "win32",
    });
    // A docker that exits before reading its input (a failed build) must not fail this process.
    child.stdin?.on("error", () => {});
    child.stdin?.end(options.input);
    const forward = (signal: NodeJS.Signals) => () => {
      interrupted = true;
      child.kill(signal);
    };
    const handlers = (["SIGINT", "SIGTERM", "SIGHUP"] as const).map((signal) => [signal, forward(signal)] as const);
    for (const [signal, handler] of handlers) process.on(signal, handler);
    const done = (code: number) => {
      for (const [signal, handler] of handlers) process.off(signal, handler);
      resolvePromise({ code, interrupted });
    };
    child.once("error", (error) => {
      process.stderr.write(`error: docker: could not start docker (${(error as NodeJS.ErrnoException).code ?? error.message})\n`);
      done(1);
    });
    child.once("close", (code, signal) => {
      done(code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0));
    });
  });
}
