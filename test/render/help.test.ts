/** `compose render --help` shows each option's default, and only options that act on the render. */
import { describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";

describe("compose render --help", () => {
  it("names every default, and leaves out --max-concurrent-renders, the server's", async () => {
    const { stdout, code } = await runCli(["render", "--help"]);
    expect(code).toBe(0);
    const help = stdout.replace(/\s+/g, " ");
    for (const expected of [
      /--format <format> .*\(default: from the output's extension, a directory for png-sequence; else mp4\)/,
      /--fps <fps> .*\(default: 30\)/,
      /--quality <preset> .*\(default: standard\)/,
      /--workers <n> .*\(default: auto, half the cores, at most 4\)/,
      /--frame <n> render only frame n, as one PNG image/,
      /--frames <a-b> render only frames a to b/,
    ]) {
      expect(help).toMatch(expected);
    }
    expect(help).not.toContain("--max-concurrent-renders");
  });

  it("still accepts --max-concurrent-renders and checks it", async () => {
    const { stderr, code } = await runCli(["render", "--max-concurrent-renders", "11", "--frame", "0", "missing-dir"]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/--max-concurrent-renders/);
  });
});
