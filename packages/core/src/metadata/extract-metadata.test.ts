import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { extractCompositionMetadata } from "./extract-metadata.js";

const HELLO = readFileSync(new URL("../../../../examples/hello/index.html", import.meta.url), "utf8");

describe("extractCompositionMetadata", () => {
  it("reads the bundled example examples/hello/index.html", () => {
    expect(extractCompositionMetadata(HELLO)).toEqual({
      id: "hello",
      width: 640,
      height: 360,
      duration: 3,
      durationSource: "data-duration",
      variables: [
        { id: "title", type: "string", label: "Title", default: "Hello, compose", maxLength: 40 },
        { id: "accent", type: "color", label: "Accent colour", default: "#ff5a36" },
        { id: "speed", type: "number", label: "Spin speed", default: 1, min: 0.25, max: 4, step: 0.25, unit: "turns" },
        { id: "showBadge", type: "boolean", label: "Show badge", default: true },
        {
          id: "mood",
          type: "enum",
          label: "Mood",
          default: "calm",
          options: [
            { value: "calm", label: "Calm" },
            { value: "loud", label: "Loud" },
          ],
        },
      ],
      opaque: false,
      instances: [],
      media: [],
    });
  });

  it("derives the duration from the last element when none is declared", () => {
    const metadata = extractCompositionMetadata(
      '<div data-composition-id="a" data-width="1" data-height="1"><p id="x" data-start="1" data-duration="2"></p><p data-start="x + 0.5" data-duration="1"></p></div>',
    );
    expect(metadata.duration).toBe(4.5);
    expect(metadata.durationSource).toBe("clips");
  });

  it("lists sub-composition instances with resolved starts and their values", () => {
    const metadata = extractCompositionMetadata(
      `<div data-composition-id="main" data-width="1" data-height="1">
        <div data-composition-id="one" data-composition-src="card.html" data-start="0.5" data-duration="2" data-variable-values='{"title": "One"}'></div>
        <div data-composition-id="two" data-composition-src="card.html" data-start="one" data-variable-values='not json'></div>
      </div>`,
    );
    expect(metadata.instances).toEqual([
      { id: "one", src: "card.html", start: 0.5, duration: 2, values: { title: "One" } },
      { id: "two", src: "card.html", start: 2.5, duration: undefined, values: {} },
    ]);
  });

  it("lists timed media, with the duration left to probing when absent", () => {
    const metadata = extractCompositionMetadata(
      `<div data-composition-id="main" data-width="1" data-height="1">
        <video id="bg" src="bg.mp4" data-start="0" data-track-index="0" data-has-audio="false"></video>
        <audio id="music" src="music.mp3" data-start="1" data-duration="4" data-track-index="1"></audio>
        <img id="logo" data-start="2" data-duration="1">
        <p id="text" data-start="0" data-duration="1"></p>
      </div>`,
    );
    expect(metadata.media).toEqual([
      { id: "bg", kind: "video", src: "bg.mp4", start: 0, duration: undefined, track: 0, hasAudio: false },
      { id: "music", kind: "audio", src: "music.mp3", start: 1, duration: 4, track: 1, hasAudio: true },
      { id: "logo", kind: "img", src: undefined, start: 2, duration: 1, track: undefined, hasAudio: undefined },
    ]);
  });

  it("leaves what a non-composition lacks undefined instead of throwing", () => {
    expect(extractCompositionMetadata("<p>hi</p>")).toEqual({
      id: undefined,
      width: undefined,
      height: undefined,
      duration: undefined,
      durationSource: undefined,
      variables: [],
      opaque: false,
      instances: [],
      media: [],
    });
  });
});
