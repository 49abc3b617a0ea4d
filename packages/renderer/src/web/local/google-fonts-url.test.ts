import { describe, expect, it } from "vitest";
import { parseGoogleFontsUrl } from "./google-fonts-url.js";

describe("parseGoogleFontsUrl", () => {
  it("reads css2 families with their axes", () => {
    expect(
      parseGoogleFontsUrl("https://fonts.googleapis.com/css2?family=Space+Mono:ital,wght@0,400;1,700&family=Inter:wght@100..900&family=Lobster&display=swap"),
    ).toEqual([
      {
        family: "Space Mono",
        faces: [
          { style: "normal", weight: 400 },
          { style: "italic", weight: 700 },
        ],
      },
      { family: "Inter", faces: [{ style: "normal", weight: [100, 900] }] },
      { family: "Lobster", faces: [{ style: "normal", weight: 400 }] },
    ]);
    expect(parseGoogleFontsUrl("https://fonts.googleapis.com/css2?family=Roboto:ital@1")).toEqual([
      { family: "Roboto", faces: [{ style: "italic", weight: 400 }] },
    ]);
  });

  it("reads css (v1) families and variants", () => {
    expect(parseGoogleFontsUrl("https://fonts.googleapis.com/css?family=Roboto:400,700italic,300i,bold|Open+Sans")).toEqual([
      {
        family: "Roboto",
        faces: [
          { style: "normal", weight: 400 },
          { style: "italic", weight: 700 },
          { style: "italic", weight: 300 },
          { style: "normal", weight: 700 },
        ],
      },
      { family: "Open Sans", faces: [{ style: "normal", weight: 400 }] },
    ]);
  });

  it("reads nothing else", () => {
    expect(parseGoogleFontsUrl("https://fonts.googleapis.com/icon?family=Material+Icons")).toBeUndefined();
    expect(parseGoogleFontsUrl("https://fonts.gstatic.com/s/inter/v12/x.woff2")).toBeUndefined();
    expect(parseGoogleFontsUrl("https://fonts.googleapis.com/css2?family=Inter:wght@bold")).toBeUndefined();
  });
});
