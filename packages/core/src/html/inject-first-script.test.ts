import { describe, expect, it } from "vitest";
import { headScriptOffset, injectFirstScript, runtimeBootCall } from "./inject-first-script.js";

const S = "<script src=/r.js></script>";

describe("injectFirstScript", () => {
  it.each([
    [
      "right after <head>",
      "<!doctype html><html lang=en><head><meta charset=utf-8><script>x()</script></head><body></body></html>",
      `<!doctype html><html lang=en><head>${S}<meta charset=utf-8>`,
    ],
    ["after <head> with attributes and odd case", "<HTML><HEAD data-x='>'><title>t</title></HEAD></HTML>", `<HTML><HEAD data-x='>'>${S}<title>`],
    [
      "after <html> without a <head> tag",
      '<!doctype html>\n<html data-composition-variables=\'[{"id":"a"}]\'>\n<body><script>x()</script>',
      `<html data-composition-variables='[{"id":"a"}]'>${S}\n<body>`,
    ],
    ["after the doctype without <html> or <head>", "<!DOCTYPE html><div data-composition-id=a></div><script>x()</script>", `<!DOCTYPE html>${S}<div`],
    ["at the start of a <template> file", "<template><div data-composition-id=card></div><script>x()</script></template>", `${S}<template>`],
    ["not inside a comment that mentions <head>", "<!-- <head> --><html><head></head></html>", `<!-- <head> --><html><head>${S}</head>`],
    ["not inside a script that mentions <head> before any head tag", '<html><script>const a = "<head>";</script>', `<html>${S}<script>`],
    ["not at a <header> element", "<html><header>x</header>", `<html>${S}<header>`],
    [
      "after a head tag that follows comments and a doctype in any case",
      '<!-- a --><!DocType html>\n<!-- b -->\n<html>\n<Head data-a="x>y">\n',
      `<Head data-a="x>y">${S}\n`,
    ],
  ])("%s", (_, html, expected) => {
    const result = injectFirstScript(html, S);
    expect(result).toContain(expected);
    expect(result.indexOf("<script")).toBe(result.indexOf(S));
  });

  it("drops a byte order mark", () => {
    expect(injectFirstScript("\uFEFF<html><head></head></html>", S)).toBe(`<html><head>${S}</head></html>`);
  });

  it("keeps everything else as it was", () => {
    const html = "<!doctype html><html><head><title>x</title></head><body>é</body></html>";
    const offset = headScriptOffset(html);
    expect(injectFirstScript(html, S)).toBe(html.slice(0, offset) + S + html.slice(offset));
  });
});

describe("runtimeBootCall", () => {
  it("boots with the config, which cannot end the script element it is written in", () => {
    expect(runtimeBootCall({ variables: { title: "</script><b>" } })).toBe(';window.__composeBoot({"variables":{"title":"\\u003c/script>\\u003cb>"}});');
  });
});
