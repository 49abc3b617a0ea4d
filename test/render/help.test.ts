/** `compose render --help` shows each option's default and marks what only the server uses. */
import { describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";

describe("compose render --help", () => {
  it("names every default, and says --max-concurrent-renders is the server's", async () => {
    const { stdout, code } = await runCli(["render", "--help"]);
    expect(code).toBe(0);
    const help = stdout.replace(/\s+/g, " ");
    for (const expected of [
      /--format <format> .*\(default: from the output's extension, a directory for png-sequence; else mp4\)/,
      /--fps <fps> .*\(default: 30\)/,
      /--quality <preset> .*\(default: standard\)/,
      /--workers <n> .*\(default: auto, half the cores, at most 4\)/,
      /--max-concurrent-renders <n> producer server only/,
      /--frame <n> render only frame n, as one PNG image/,
      /--frames <a-b> render only frames a to b/,
    ]) {
      expect(help).toMatch(expected);
    }
  });
});
