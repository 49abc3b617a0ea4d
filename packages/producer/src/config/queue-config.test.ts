/** `--queue` and `--chunk-size` of compose serve, and the flags of compose worker. */
import { tmpdir } from "node:os";
import { describe, expect, it } from "vitest";
import { serverConfigFromFlags, ServerConfigError } from "./server-config.js";
import { workerConfigFromFlags } from "./worker-config.js";

const serve = (flags: Record<string, string>) => serverConfigFromFlags({ projects: tmpdir(), ...flags }, {}, tmpdir());
const worker = (flags: Record<string, string>) => workerConfigFromFlags({ projects: tmpdir(), ...flags }, tmpdir());

describe("compose serve --queue", () => {
  it("is off by default: the in-process queue", () => {
    expect(serve({}).queue).toBeUndefined();
    expect(serve({}).chunkSize).toBeUndefined();
  });

  it("takes a Redis URL, and --chunk-size with it", () => {
    expect(serve({ queue: "redis://10.0.0.5:6379" })).toMatchObject({ queue: "redis://10.0.0.5:6379" });
    expect(serve({ queue: "rediss://user:secret@redis.internal:6380/2", chunkSize: "120" })).toMatchObject({ chunkSize: 120 });
  });

  it("refuses what is not a Redis URL, and --chunk-size without a queue, in one line", () => {
    expect(() => serve({ queue: "localhost:6379" })).toThrow(/--queue must be a Redis URL such as redis:\/\/127\.0\.0\.1:6379 \(got localhost:6379\)/);
    expect(() => serve({ queue: "http://localhost:6379" })).toThrow(ServerConfigError);
    expect(() => serve({ queue: "redis://localhost:6379/queue" })).toThrow(/database number/);
    expect(() => serve({ chunkSize: "30" })).toThrow(/--chunk-size needs --queue redis:\/\/HOST:PORT/);
    expect(() => serve({ queue: "redis://h:1", chunkSize: "0" })).toThrow(/--chunk-size must be an integer from 1 to/);
    expect(() => serve({ queue: "redis://h:1", chunkSize: "ten" })).toThrow(/--chunk-size .*\(got ten\)/);
  });
});

describe("compose worker flags", () => {
  it("need --queue", () => {
    expect(() => worker({})).toThrow(/--queue redis:\/\/HOST:PORT is required/);
  });

  it("default to one task at once, a 30 s stall timeout and a 30 s grace period", () => {
    expect(worker({ queue: "redis://h:6379" })).toMatchObject({ concurrency: 1, stallTimeoutMs: 30_000, shutdownGraceMs: 30_000, projectsDir: tmpdir() });
  });

  it("check their ranges", () => {
    expect(worker({ queue: "redis://h:6379", concurrency: "4", stallTimeout: "2.5" })).toMatchObject({ concurrency: 4, stallTimeoutMs: 2500 });
    expect(() => worker({ queue: "redis://h:6379", concurrency: "0" })).toThrow(/--concurrency must be an integer from 1 to 8/);
    expect(() => worker({ queue: "redis://h:6379", stallTimeout: "0.5" })).toThrow(/--stall-timeout must be a number of seconds from 1 to 3600/);
    expect(() => worker({ queue: "redis://h:6379", projects: "/no/such/dir" })).toThrow(/--projects \/no\/such\/dir is not a directory/);
  });
});
