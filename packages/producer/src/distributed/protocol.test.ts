/** The pure parts of the distributed queue: job input cap, failure codes, names. */
import { describe, expect, it } from "vitest";
import { JobPayloadTooLargeError } from "../queue/render-backend.js";
import {
  checkPayloadSize,
  chunkDirectory,
  decodeFailure,
  encodeFailure,
  isOutputName,
  MAX_JOB_PAYLOAD_BYTES,
  payloadBytes,
  taskId,
  type TaskData,
} from "./protocol.js";

describe("a job's input", () => {
  it("may be up to 256 KiB of JSON, and no more", () => {
    expect(MAX_JOB_PAYLOAD_BYTES).toBe(256 * 1024);
    const sized = (bytes: number) => ({ pad: "x".repeat(bytes - payloadBytes({ pad: "" })) });
    expect(payloadBytes(sized(MAX_JOB_PAYLOAD_BYTES))).toBe(MAX_JOB_PAYLOAD_BYTES);
    expect(() => checkPayloadSize(sized(MAX_JOB_PAYLOAD_BYTES))).not.toThrow();
    expect(() => checkPayloadSize(sized(MAX_JOB_PAYLOAD_BYTES + 1))).toThrow(JobPayloadTooLargeError);
  });

  it("is the request's alone: a task names its request and carries only its own few fields", () => {
    const requestId = "0b8e4f0a-1c2d-4e5f-8a9b-0c1d2e3f4a5b";
    const tasks: TaskData[] = [
      { kind: "render", requestId },
      { kind: "chunk", requestId, index: 99_999, count: 100_000, frames: { start: 999_990, end: 1_000_000 }, planHash: "f".repeat(64) },
      { kind: "assemble", requestId, count: 100_000, planHash: "f".repeat(64) },
    ];
    for (const task of tasks) expect(payloadBytes(task)).toBeLessThan(1024);
  });

  it("counts bytes, not characters", () => {
    const text = "é".repeat(MAX_JOB_PAYLOAD_BYTES / 2);
    expect(() => checkPayloadSize({ text })).toThrow(/over the 256 KiB cap/);
  });
});

describe("failure reasons", () => {
  it("carry the renderer's code through BullMQ's one-line failedReason", () => {
    expect(decodeFailure(encodeFailure("not-ready", "the page did not become ready: timeout"))).toEqual({
      code: "not-ready",
      message: "the page did not become ready: timeout",
    });
    expect(decodeFailure(encodeFailure("cancelled", "render cancelled"))).toEqual({ code: "cancelled", message: "render cancelled" });
  });

  it("name BullMQ's own reasons", () => {
    expect(decodeFailure("job stalled more than allowable limit").code).toBe("worker-lost");
    expect(decodeFailure("Something Odd").code).toBe("internal-error");
    expect(decodeFailure(undefined).code).toBe("internal-error");
  });
});

describe("names", () => {
  it("derive task ids from the request id, so a restarted coordinator finds its tasks", () => {
    expect(taskId("r1", "plan")).toBe("r1.plan");
    expect(taskId("r1", "chunk", 3)).toBe("r1.chunk.3");
    expect(chunkDirectory("/o", "r1")).toBe("/o/.compose-chunks/r1");
  });

  it("let a job write only plain names inside the outputs directory", () => {
    expect(isOutputName("0b8e4f0a-1c2d-4e5f-8a9b-0c1d2e3f4a5b.mp4")).toBe(true);
    for (const bad of ["../x.mp4", "a/b.mp4", ".hidden", "", "x..mp4", "/abs"]) expect(isOutputName(bad), bad).toBe(false);
  });
});
