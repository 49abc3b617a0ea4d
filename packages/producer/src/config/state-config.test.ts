/** `--state` of compose serve: where the state store is, and what is refused. */
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { serverConfigFromFlags } from "./server-config.js";

const serve = (flags: Record<string, string>) =>
  serverConfigFromFlags({ projects: tmpdir(), outputs: join(tmpdir(), "compose-state-config"), ...flags }, {}, tmpdir());

describe("compose serve --state", () => {
  it("is inside the outputs directory when not given, and a file relative to the working directory when given", () => {
    expect(serve({}).statePath).toBeUndefined();
    expect(serve({ state: "server.db" }).statePath).toBe(join(tmpdir(), "server.db"));
  });

  it("refuses a directory, or nothing, in one line", () => {
    expect(() => serve({ state: tmpdir() })).toThrow(`--state ${tmpdir()} is a directory; give the path of a file (the state store, created if missing)`);
    expect(() => serve({ state: " " })).toThrow("--state must be a file path (the state store, created if missing)");
  });
});
