import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { fullDiskError } from "./disk-full.js";
import { RenderError } from "./render-error.js";
import { toolPath } from "./tool-paths.js";
import { trackChild } from "./child-processes.js";

const FFMPEG_MISSING = "ffmpeg was not found: install it with `sudo apt-get install ffmpeg` or set COMPOSE_FFMPEG to its path";

export function ffmpegPath(): string {
  return toolPath("ffmpeg");
}

/**
 * What ffmpeg logs when a write of its output failed. It still exits 0 after some of them (a
 * trailer it could not write on a full disk), so its exit code alone does not say the output is whole.
 */
const WRITE_FAILED =
  /Error writing trailer|Error submitting a packet to the muxer|av_interleaved_write_frame\(\)|Error closing file|No space left on device|File too large|Input\/output error/;

interface StderrLog {
  /** The tail of the log: the head is rarely the reason. */
  tail(): string;
  /** The first line that reported a failed write, wherever in the log it stood. */
  writeFailure(): string | undefined;
}

function collectStderr(child: ChildProcess): StderrLog {
  let text = "";
  let failure: string | undefined;
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    text = (text + chunk).slice(-4000);
    // Matched on the tail, not the chunk: a line may arrive in two chunks.
    failure ??= text
      .split("\n")
      .find((line) => WRITE_FAILED.test(line))
      ?.trim();
  });
  return { tail: () => text, writeFailure: () => failure };
}

function failedWith(how: string, log: string, args: string[]): RenderError {
  const full = fullDiskError(log, args.at(-1));
  if (full) return full;
  const lastLine = log.trim().split("\n").filter(Boolean).slice(-1)[0] ?? "";
  return new RenderError("encode-failed", `ffmpeg ${how}${lastLine ? `: ${lastLine}` : ""}`);
}

function exitError(code: number | null, signal: NodeJS.Signals | null, log: StderrLog, args: string[]): RenderError | undefined {
  if (code !== 0 || signal) return failedWith(signal ? `was killed by ${signal}` : `exited with code ${code}`, log.tail(), args);
  const failure = log.writeFailure();
  return failure === undefined ? undefined : failedWith("could not write its output", `${log.tail()}\n${failure}`, args);
}

function spawnFfmpeg(args: string[], stdin: "pipe" | "ignore"): ChildProcess {
  return trackChild(spawn(ffmpegPath(), args, { stdio: [stdin, "ignore", "pipe"] }));
}

function waitForExit(child: ChildProcess, log: StderrLog, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    child.once("error", (error: NodeJS.ErrnoException) => reject(error.code === "ENOENT" ? new RenderError("ffmpeg-missing", FFMPEG_MISSING) : error));
    child.once("close", (code, signal) => {
      const error = exitError(code, signal, log, args);
      if (error) reject(error);
      else resolve();
    });
  });
}

/** Runs ffmpeg to completion (for steps that read files, such as joining chunks). */
export async function runFfmpeg(args: string[], signal?: AbortSignal): Promise<void> {
  const child = spawnFfmpeg(args, "ignore");
  const kill = () => child.kill("SIGKILL");
  signal?.addEventListener("abort", kill, { once: true });
  try {
    await waitForExit(child, collectStderr(child), args);
  } finally {
    signal?.removeEventListener("abort", kill);
  }
}

/** An ffmpeg process that encodes the images written to it. */
export class FrameEncoder {
  private readonly child: ChildProcess;
  private readonly exited: Promise<void>;
  private failure: Error | undefined;

  constructor(args: string[]) {
    this.child = spawnFfmpeg(args, "pipe");
    this.exited = waitForExit(this.child, collectStderr(this.child), args);
    this.exited.catch((error: Error) => {
      this.failure = error;
    });
    // A write after ffmpeg died reports EPIPE; the exit error is the one worth showing.
    this.child.stdin?.on("error", () => undefined);
  }

  /** Resolves when ffmpeg has taken the bytes, so a fast browser cannot fill memory with frames. */
  async write(chunks: Buffer[]): Promise<void> {
    if (this.failure) throw this.failure;
    const stdin = this.child.stdin!;
    let taken = true;
    for (const chunk of chunks) taken = stdin.write(chunk);
    if (!taken) {
      // A pipe that breaks (EPIPE) is ffmpeg gone: why it went is the error worth showing.
      await Promise.race([once(stdin, "drain"), this.exited]).catch(() => this.exited);
      if (this.failure) throw this.failure;
    }
  }

  async finish(): Promise<void> {
    this.child.stdin?.end();
    await this.exited;
  }

  kill(): void {
    this.child.kill("SIGKILL");
  }
}
