import { describe, expect, it } from "vitest";
import { parseComposition } from "./parse-composition.js";

function composition(body: string, rootAttributes = 'data-composition-id="main" data-width="640" data-height="360"'): string {
  return `<!doctype html>\n<html>\n<body>\n<div ${rootAttributes}>\n${body}\n</div>\n</body>\n</html>\n`;
}

describe("parseComposition", () => {
  it("reads the root from a div in the body", () => {
    const parsed = parseComposition(composition("", 'id="stage" data-composition-id="main" data-width="640" data-height="360" data-duration="2.5"'));
    expect(parsed.root).toEqual({
      id: "main",
      tagName: "div",
      width: 640,
      height: 360,
      duration: 2.5,
      durationWritten: true,
      style: undefined,
      opaque: false,
      loc: { line: 4, column: 1, offset: 30 },
    });
    expect(parsed.problems).toEqual([]);
  });

  it("accepts the <html> element as the root", () => {
    const parsed = parseComposition('<html data-composition-id="page" data-width="10" data-height="20"><body><p data-start="1"></p></body></html>');
    expect(parsed.root).toMatchObject({ id: "page", tagName: "html", width: 10, height: 20, duration: undefined });
    expect(parsed.elements).toHaveLength(1);
  });

  it("finds a root wrapped in a <template>, with its variables", () => {
    const parsed = parseComposition(
      `<template id="card">\n  <div data-composition-id="card" data-width="320" data-height="180" data-composition-variables='[{"id":"t","type":"string","label":"T","default":"x"}]'>\n    <span id="a" data-start="0" data-duration="1"></span>\n  </div>\n</template>`,
    );
    expect(parsed.root).toMatchObject({ id: "card", width: 320, height: 180 });
    expect(parsed.elements.map((element) => element.id)).toEqual(["a"]);
    expect(parsed.declarations.variables.map((variable) => variable.id)).toEqual(["t"]);
  });

  it("ignores inert templates inside the root", () => {
    const parsed = parseComposition(composition('<template><p id="copy" data-start="1"></p></template>'));
    expect(parsed.elements).toEqual([]);
  });

  it("prefers an element with an id and size over an earlier one with an id only", () => {
    const parsed = parseComposition('<div data-composition-id="a"></div><div data-composition-id="b" data-width="1" data-height="1"></div>');
    expect(parsed.root?.id).toBe("b");
    expect(parsed.problems).toEqual([]);
  });

  it("reports HTML that is not a composition", () => {
    const parsed = parseComposition("<p>hello</p>");
    expect(parsed.root).toBeUndefined();
    expect(parsed.problems).toEqual([
      {
        code: "no-composition-root",
        message: "not a composition: no element has data-composition-id with data-width and data-height",
        loc: { line: 1, column: 1, offset: 0 },
      },
    ]);
  });

  it.each([
    ['data-width="640" data-height="360"', "data-composition-id"],
    ['data-composition-id="" data-width="640" data-height="360"', "data-composition-id"],
    ['data-composition-id="a" data-height="360"', "data-width"],
    ['data-composition-id="a" data-width="640"', "data-height"],
  ])("reports a root with %s as missing %s", (attributes, missing) => {
    const parsed = parseComposition(composition("", attributes));
    expect(parsed.problems).toEqual([
      {
        code: "root-missing-attribute",
        message: `the composition root <div> has no ${missing}; a composition needs data-composition-id, data-width and data-height`,
        loc: { line: 4, column: 1, offset: 30 },
      },
    ]);
  });

  it.each([
    ['data-width="wide" data-height="1"', 'data-width="wide" on the composition root <div> must be a whole number of pixels greater than 0'],
    ['data-width="0" data-height="1"', 'data-width="0" on the composition root <div> must be a whole number of pixels greater than 0'],
    ['data-width="1" data-height="1.5"', 'data-height="1.5" on the composition root <div> must be a whole number of pixels greater than 0'],
    ['data-width="1" data-height=""', 'data-height="" on the composition root <div> must be a whole number of pixels greater than 0'],
    [
      'data-width="1" data-height="1" data-duration="3s"',
      'data-duration="3s" on the composition root <div> must be a plain number of seconds from 0.001 to 10000000000, such as 2.5',
    ],
    [
      'data-width="1" data-height="1" data-duration="1e-9"',
      'data-duration="1e-9" on the composition root <div> must be a plain number of seconds from 0.001 to 10000000000, such as 2.5',
    ],
    [
      'data-width="1" data-height="1" data-duration="1e308"',
      'data-duration="1e308" on the composition root <div> must be a plain number of seconds from 0.001 to 10000000000, such as 2.5',
    ],
    [
      'data-width="1" data-height="1" data-duration="0.000000001"',
      'data-duration="0.000000001" on the composition root <div> must be a plain number of seconds from 0.001 to 10000000000, such as 2.5',
    ],
    [
      `data-width="1" data-height="1" data-duration="1${"0".repeat(308)}"`,
      `data-duration="1${"0".repeat(59)}…" on the composition root <div> must be a plain number of seconds from 0.001 to 10000000000, such as 2.5`,
    ],
  ])("reports a root with %s", (attributes, message) => {
    const parsed = parseComposition(composition("", `data-composition-id="a" ${attributes}`));
    expect(parsed.problems.map(({ code, message }) => ({ code, message }))).toEqual([{ code: "invalid-attribute", message }]);
  });

  it("collects timed elements inside the root with their kind and attributes", () => {
    const parsed = parseComposition(
      composition(
        [
          '<h1 id="title" data-start="0" data-duration="2" data-track-index="1">Hi</h1>',
          '<video id="bg" src="bg.mp4" data-start="title" data-track-index="2" data-has-audio="true"></video>',
          '<audio id="music" src="a.mp3" data-start="0"></audio>',
          '<img id="logo" src="logo.png" data-start="1.5" data-duration="1">',
          '<video src="plain.mp4"></video>',
          "<p>not timed</p>",
        ].join("\n"),
      ),
    );
    expect(
      parsed.elements.map(({ id, kind, tagName, start, duration, track, src, hasAudio }) => ({ id, kind, tagName, start, duration, track, src, hasAudio })),
    ).toEqual([
      { id: "title", kind: "clip", tagName: "h1", start: "0", duration: 2, track: 1, src: undefined, hasAudio: undefined },
      { id: "bg", kind: "video", tagName: "video", start: "title", duration: undefined, track: 2, src: "bg.mp4", hasAudio: true },
      { id: "music", kind: "audio", tagName: "audio", start: "0", duration: undefined, track: undefined, src: "a.mp3", hasAudio: true },
      { id: "logo", kind: "img", tagName: "img", start: "1.5", duration: 1, track: undefined, src: "logo.png", hasAudio: undefined },
    ]);
    expect(parsed.elements[1]?.startLoc).toEqual({ line: 6, column: 29, offset: expect.any(Number) });
  });

  it("reports bad timing attributes on clips", () => {
    const parsed = parseComposition(composition('<p id="x" data-start="0" data-duration="-1" data-track-index="first"></p>'));
    expect(parsed.problems.map((problem) => problem.message)).toEqual([
      'data-duration="-1" on <p id="x"> must be a plain number of seconds from 0 to 10000000000',
      'data-track-index="first" on <p id="x"> must be a whole number, 0 or more',
    ]);
    expect(parsed.problems[0]?.loc).toEqual({ line: 5, column: 26, offset: expect.any(Number) });
  });

  it("reads sub-composition hosts and their values", () => {
    const parsed = parseComposition(
      composition(
        [
          `<div data-composition-id="card1" data-composition-src="card.html" data-start="1" data-track-index="0" data-variable-values='{"title": "One"}'></div>`,
          `<div data-composition-id="card2" data-composition-src="card.html" data-start="card1" data-variable-values='{"title": }'></div>`,
          `<div data-composition-id="card3" data-composition-src="card.html" data-variable-values='[1]'></div>`,
          `<div data-composition-src="card.html"></div>`,
        ].join("\n"),
      ),
    );
    expect(parsed.hosts.map(({ id, src, element }) => ({ id, src, element }))).toEqual([
      { id: "card1", src: "card.html", element: 0 },
      { id: "card2", src: "card.html", element: 1 },
      { id: "card3", src: "card.html", element: 2 },
      { id: undefined, src: "card.html", element: 3 },
    ]);
    expect(parsed.elements.map(({ id, kind, start }) => ({ id, kind, start }))).toEqual([
      { id: "card1", kind: "host", start: "1" },
      { id: "card2", kind: "host", start: "card1" },
      { id: "card3", kind: "host", start: undefined },
      { id: undefined, kind: "host", start: undefined },
    ]);
    const [first, second, third] = parsed.hosts.map((host) => host.variableValues);
    expect(first).toMatchObject({ text: '{"title": "One"}', values: { title: "One" }, finding: undefined });
    expect(second?.finding).toEqual({
      code: "variable-values-invalid-json",
      message: "data-variable-values is not valid JSON: expected a value but found '}'",
      offset: 10,
    });
    expect(third?.finding?.code).toBe("variable-values-not-object");
    expect(parsed.problems.map((problem) => problem.code)).toEqual(["host-missing-id"]);
  });

  it("maps attribute values to their place in the file only when the source spells them literally", () => {
    const parsed = parseComposition(
      `<html data-composition-variables='[1]'><body><div data-composition-id="a" data-width="1" data-height="1">` +
        `<div data-composition-id="b" data-composition-src="b.html" data-variable-values="{&quot;x&quot;: 1}"></div></div></body></html>`,
    );
    expect(parsed.variablesAttribute).toEqual({ name: "data-composition-variables", text: "[1]", loc: { line: 1, column: 7, offset: 6 }, valueOffset: 34 });
    expect(parsed.hosts[0]?.variableValues).toMatchObject({ text: '{"x": 1}', values: { x: 1 }, valueOffset: undefined });
  });

  it("collects the URLs media elements load", () => {
    const parsed = parseComposition(
      composition('<img src="data:image/png;base64,AAAA"><video poster="p.png"><source src="v.webm"></video><audio src="a.mp3"></audio>'),
    );
    expect(parsed.media.map(({ tagName, attribute, url }) => `${tagName} ${attribute} ${url}`)).toEqual([
      "img src data:image/png;base64,AAAA",
      "video poster p.png",
      "source src v.webm",
      "audio src a.mp3",
    ]);
  });

  it("walks a document nested far deeper than the call stack", () => {
    const depth = 20_000;
    const html = `<div data-composition-id="a" data-width="1" data-height="1">${"<div>".repeat(depth)}<p id="deep" data-start="1"></p>`;
    expect(parseComposition(html).elements.map((element) => element.id)).toEqual(["deep"]);
  });
});
