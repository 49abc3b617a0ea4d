import { describe, expect, it } from "vitest";
import { LINT_CODES, type LintCode } from "./codes.js";
import type { FontPackageProblem } from "./types.js";
import { composition, lintFiles, type ProjectFiles } from "./lint.test-helpers.js";
import type { NetworkMode } from "../options/option-declarations.js";

const CARD = composition('<p id="line" data-start="0" data-duration="1"></p>', {
  variables: JSON.stringify([
    { id: "title", type: "string", label: "Title", default: "Card" },
    { id: "mood", type: "enum", label: "Mood", default: "calm", options: [{ value: "calm", label: "Calm" }] },
  ]),
  root: 'data-composition-id="card" data-width="320" data-height="180" data-duration="1"',
});

const withCard = (hosts: string): ProjectFiles => ({ "index.html": composition(hosts), "card.html": CARD });
const host = (values: string): ProjectFiles =>
  withCard(`<div data-composition-id="card1" data-composition-src="card.html" data-variable-values='${values}'></div>`);
const declare = (declarations: string): ProjectFiles => ({ "index.html": composition("", { variables: declarations }) });
const declareOne = (declaration: object): ProjectFiles => declare(JSON.stringify([declaration]));
const clips = (...lines: string[]): ProjectFiles => ({ "index.html": composition(lines.join("\n")) });

const NUMBER = { id: "n", type: "number", label: "N", default: 1 };

/** For every code: a project that triggers it and a close variant that does not (with the font package problems the caller found). */
const CASES: Record<LintCode, { bad: ProjectFiles; good: ProjectFiles; assets?: { network?: NetworkMode }; fontPackageProblems?: FontPackageProblem[] }> = {
  "no-composition-root": { bad: { "index.html": "<p>hello</p>" }, good: clips() },
  "root-missing-attribute": {
    bad: { "index.html": composition("", { root: 'data-composition-id="main" data-width="320"' }) },
    good: { "index.html": composition("", { root: 'data-composition-id="main" data-width="320" data-height="2" data-duration="1"' }) },
  },
  "invalid-attribute": {
    bad: clips('<p id="a" data-start="0" data-duration="2s"></p>'),
    good: clips('<p id="a" data-start="0" data-duration="2"></p>'),
  },
  "host-missing-id": {
    bad: withCard('<div data-composition-src="card.html"></div>'),
    good: withCard('<div data-composition-id="card1" data-composition-src="card.html"></div>'),
  },
  "root-size-mismatch": {
    bad: {
      "index.html": composition("", {
        root: 'data-composition-id="main" data-width="320" data-height="180" data-duration="1" style="width: 320px; height: 100px"',
      }),
    },
    good: {
      "index.html": composition("", {
        root: 'data-composition-id="main" data-width="320" data-height="180" data-duration="1" style="width: 320px; height: 180px"',
      }),
    },
  },
  "no-duration": {
    bad: { "index.html": composition("", { root: 'data-composition-id="main" data-width="320" data-height="180"' }) },
    good: {
      "index.html": composition("<script>window.__timelines.main = makeTimeline();</script>", {
        root: 'data-composition-id="main" data-width="320" data-height="180"',
      }),
    },
  },
  "odd-size": {
    bad: { "index.html": composition("", { root: 'data-composition-id="main" data-width="321" data-height="180" data-duration="1"' }) },
    good: { "index.html": composition("", { root: 'data-composition-id="main" data-width="322" data-height="180" data-duration="1"' }) },
  },
  "variables-invalid-json": { bad: declare('[{"id": }]'), good: declare("[]") },
  "variables-not-array": { bad: declare("{}"), good: declare("[]") },
  "variable-not-object": { bad: declare('["title"]'), good: declareOne(NUMBER) },
  "variable-missing-field": {
    bad: declareOne({ id: "t", type: "string", label: "T" }),
    good: declareOne({ id: "t", type: "string", label: "T", default: "" }),
  },
  "variable-invalid-field": { bad: declareOne({ ...NUMBER, unit: 5 }), good: declareOne({ ...NUMBER, unit: "px" }) },
  "variable-unknown-type": { bad: declareOne({ ...NUMBER, type: "integer" }), good: declareOne(NUMBER) },
  "variable-duplicate-id": { bad: declare(JSON.stringify([NUMBER, NUMBER])), good: declare(JSON.stringify([NUMBER, { ...NUMBER, id: "m" }])) },
  "variable-default-mismatch": {
    bad: declareOne({ id: "c", type: "color", label: "C", default: "red" }),
    good: declareOne({ id: "c", type: "color", label: "C", default: "#ff0000" }),
  },
  "variable-invalid-options": {
    bad: declareOne({ id: "e", type: "enum", label: "E", default: "a", options: ["a"] }),
    good: declareOne({ id: "e", type: "enum", label: "E", default: "a", options: [{ value: "a", label: "A" }] }),
  },
  "variable-min-above-max": { bad: declareOne({ ...NUMBER, min: 2, max: 0 }), good: declareOne({ ...NUMBER, min: 0, max: 2 }) },
  "variable-invalid-step": { bad: declareOne({ ...NUMBER, step: 0 }), good: declareOne({ ...NUMBER, step: 0.5 }) },
  "variable-values-invalid-json": { bad: host('{"title": }'), good: host('{"title": "One"}') },
  "variable-values-not-object": { bad: host('["One"]'), good: host("{}") },
  "variable-values-undeclared": { bad: host('{"subtitle": "One"}'), good: host('{"title": "One"}') },
  "variable-values-type-mismatch": { bad: host('{"title": 1}'), good: host('{"title": "1"}') },
  "variable-values-enum-out-of-range": { bad: host('{"mood": "angry"}'), good: host('{"mood": "calm"}') },
  "sub-composition-missing": {
    bad: withCard('<div data-composition-id="card1" data-composition-src="cards.html"></div>'),
    good: withCard('<div data-composition-id="card1" data-composition-src="card.html"></div>'),
  },
  "sub-composition-unreadable": {
    bad: { ...withCard('<div data-composition-id="card1" data-composition-src="card.bin"></div>'), "card.bin": new Error("card.bin is binary") },
    good: withCard('<div data-composition-id="card1" data-composition-src="card.html"></div>'),
  },
  "not-a-project-file": {
    bad: {
      ...withCard('<div data-composition-id="card1" data-composition-src="card.pipe"></div>'),
      "card.pipe": Object.assign(new Error("card.pipe is a FIFO (named pipe); only regular files inside the project are read"), { code: "not-a-project-file" }),
    },
    good: withCard('<div data-composition-id="card1" data-composition-src="card.html"></div>'),
  },
  "sub-composition-cycle": {
    bad: {
      "index.html": composition('<div data-composition-id="a" data-composition-src="a.html"></div>'),
      "a.html": composition('<div data-composition-id="b" data-composition-src="index.html"></div>'),
    },
    good: {
      "index.html": composition('<div data-composition-id="a" data-composition-src="a.html"></div>'),
      "a.html": composition('<div data-composition-id="b" data-composition-src="b.html"></div>'),
      "b.html": composition(""),
    },
  },
  "timing-bad-start": { bad: clips('<p id="a" data-start="soon!"></p>'), good: clips('<p id="a" data-start="1"></p>') },
  "timing-unknown-reference": {
    bad: clips('<p id="b" data-start="intro"></p>'),
    good: clips('<p id="intro" data-start="0" data-duration="1"></p>', '<p id="b" data-start="intro"></p>'),
  },
  "timing-reference-without-duration": {
    bad: clips('<p id="intro" data-start="0"></p>', '<p id="b" data-start="intro"></p>'),
    good: clips('<p id="intro" data-start="0" data-duration="1"></p>', '<p id="b" data-start="intro"></p>'),
  },
  "timing-media-duration-unknown": {
    bad: clips('<video id="bg" src="bg.mp4" data-start="0"></video>', '<p id="b" data-start="bg"></p>'),
    good: clips('<video id="bg" src="bg.mp4" data-start="0" data-duration="3"></video>', '<p id="b" data-start="bg"></p>'),
  },
  "timing-cycle": {
    bad: clips('<p id="a" data-start="b" data-duration="1"></p>', '<p id="b" data-start="a" data-duration="1"></p>'),
    good: clips('<p id="a" data-start="0" data-duration="1"></p>', '<p id="b" data-start="a" data-duration="1"></p>'),
  },
  "timing-duplicate-id": {
    bad: clips('<p id="a" data-start="0" data-duration="1"></p>', '<p id="a" data-start="1" data-duration="1"></p>'),
    good: clips('<p id="a" data-start="0" data-duration="1"></p>', '<p id="b" data-start="1" data-duration="1"></p>'),
  },
  "timing-negative-start": {
    bad: clips('<p id="a" data-start="0" data-duration="1"></p>', '<p id="b" data-start="a - 2"></p>'),
    good: clips('<p id="a" data-start="0" data-duration="1"></p>', '<p id="b" data-start="a - 0.5"></p>'),
  },
  "track-overlap": {
    bad: clips('<p id="a" data-start="0" data-duration="2" data-track-index="1"></p>', '<p id="b" data-start="1" data-duration="2" data-track-index="1"></p>'),
    good: clips(
      '<p id="a" data-start="0" data-duration="2" data-track-index="1"></p>',
      '<p id="b" data-start="a" data-duration="2" data-track-index="1"></p>',
      '<p id="c" data-start="1" data-duration="2" data-track-index="2"></p>',
    ),
  },
  "font-family-unknown": {
    bad: clips('<p style="font-family: Nowhere Sans, sans-serif">x</p>'),
    good: clips('<p style="font-family: Inter, sans-serif">x</p>'),
  },
  "font-package-invalid": {
    bad: clips('<p style="font-family: Space Mono">x</p>'),
    good: clips('<p style="font-family: Space Mono">x</p>'),
    fontPackageProblems: [
      { file: "node_modules/@fontsource/space-mono/package.json", line: 2, column: 3, problem: "is not valid JSON, so the package is not used" },
    ],
  },
  "foreign-runtime-api": {
    bad: clips("<script>const { title } = window.__hyperframes.getVariables();</script>"),
    good: clips("<script>const { title } = window.__compose.getVariables();</script>"),
  },
  "foreign-adapter-global": {
    bad: clips("<script>window.__hfSeek = (t) => draw(t);</script>"),
    good: clips("<script>__compose.onSeek((t) => draw(t));</script>"),
  },
  "foreign-seek-event": {
    bad: clips('<script>window.addEventListener("hf-seek", (e) => draw(e.detail));</script>'),
    good: clips("<script>__compose.onSeek((t) => draw(t));</script>"),
  },
  "foreign-no-timeline": { bad: clips('<p id="a" data-no-timeline></p>'), good: clips('<p id="a"></p>') },
  "foreign-fps": { bad: clips('<p id="a" data-fps="30"></p>'), good: clips('<p id="a"></p>') },
  "inline-media": {
    bad: clips('<img id="logo" src="data:image/png;base64,iVBORw0KGgo=" data-start="0">'),
    good: clips('<img id="logo" src="logo.png" data-start="0">'),
  },
  "missing-asset": {
    bad: clips('<img src="logo.png">'),
    good: { ...clips('<img src="logo.png">'), "logo.png": "" },
    assets: {},
  },
  "network-refused": {
    bad: clips('<img src="https://cdn.example.com/logo.png">'),
    good: { ...clips('<img src="https://cdn.example.com/logo.png">') },
    assets: { network: "none" },
  },
};

describe("lint codes", () => {
  it.each(Object.entries(CASES))("%s: triggered by the bad example only", async (code, { bad, good, assets, fontPackageProblems }) => {
    const badFindings = await lintFiles(bad, "index.html", assets, fontPackageProblems);
    expect(badFindings.map((finding) => finding.code)).toContain(code);
    expect(badFindings.find((finding) => finding.code === code)?.severity).toBe(LINT_CODES[code as LintCode]);
    expect(await lintFiles(good, "index.html", assets && { ...assets, network: "public" })).toEqual([]);
  });

  it("has an example for every code", () => {
    expect(Object.keys(CASES).sort()).toEqual(Object.keys(LINT_CODES).sort());
  });
});
