/**
 * ffmpeg reads a project media file as the project server would serve it: the file is opened and
 * checked first, and ffmpeg is given the open file, so a name swapped for a link out after the
 * check still reads the file that was checked.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync, renameSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MediaDescription } from "@compose/runtime";
import { probeSource } from "../media/probe-source.js";
import { prepareMedia, type MediaContext, type PreparedMedia } from "./prepare-media.js";

const BASE_URL = "http://127.0.0.1:9/";
let root: string;

function tone(file: string, seconds: number): void {
  execFileSync("ffmpeg", ["-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", `sine=frequency=440:duration=${seconds}`, "-c:a", "aac", file]);
}

function audio(src: string): MediaDescription {
  return {
    key: "0",
    kind: "audio",
    id: "music",
    src: `${BASE_URL}${src}`,
    start: 0,
    duration: undefined,
    declaredDuration: undefined,
    mediaStart: 0,
    volume: 1,
    playbackRate: 1,
    audible: true,
  };
}

async function prepare(src: string, closers: Array<() => Promise<void>>): Promise<PreparedMedia> {
  const page = { describeMedia: async () => [audio(src)], prepareMedia: async () => undefined };
  const context: MediaContext = { projectRoot: join(root, "project"), baseUrl: BASE_URL, fps: 30, image: "jpeg", keepOpen: (close) => closers.push(close) };
  return prepareMedia([page], context);
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "compose-media-open-"));
  mkdirSync(join(root, "project"));
  tone(join(root, "project", "music.m4a"), 1);
  tone(join(root, "outside.m4a"), 3);
  symlinkSync(join(root, "outside.m4a"), join(root, "project", "link-out.m4a"));
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("a project media file for ffmpeg", () => {
  it("is read as opened and checked, though its name is swapped for a link out afterwards", async () => {
    const closers: Array<() => Promise<void>> = [];
    const { audio: clips } = await prepare("music.m4a", closers);
    expect(clips).toHaveLength(1);
    renameSync(join(root, "project", "music.m4a"), join(root, "project", "moved.m4a"));
    symlinkSync(join(root, "outside.m4a"), join(root, "project", "music.m4a"));
    const facts = await probeSource(clips[0]!.input);
    expect(facts.duration).toBeCloseTo(1, 1);
    await Promise.all(closers.map((close) => close()));
  });

  it("is refused when it is a link out of the project, and nothing is left open", async () => {
    const closers: Array<() => Promise<void>> = [];
    await expect(prepare("link-out.m4a", closers)).rejects.toThrow("link-out.m4a): is not a regular file inside the project");
    expect(closers).toEqual([]);
  });
});
