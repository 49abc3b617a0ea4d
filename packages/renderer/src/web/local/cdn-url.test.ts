import { describe, expect, it } from "vitest";
import { parseCdnUrl } from "./cdn-url.js";

describe("parseCdnUrl", () => {
  it("reads a file of an exact version on jsdelivr, unpkg and cdnjs", () => {
    expect(parseCdnUrl("https://cdn.jsdelivr.net/npm/gsap@3.12.5/dist/gsap.min.js")).toMatchObject({
      name: "gsap",
      version: "3.12.5",
      paths: ["dist/gsap.min.js"],
    });
    expect(parseCdnUrl("https://unpkg.com/@lottiefiles/lottie-player@2.0.4/dist/lottie-player.js")).toMatchObject({
      name: "@lottiefiles/lottie-player",
      version: "2.0.4",
      paths: ["dist/lottie-player.js"],
    });
    expect(parseCdnUrl("https://cdnjs.cloudflare.com/ajax/libs/gsap/3.12.5/ScrollTrigger.min.js")).toMatchObject({
      name: "gsap",
      version: "3.12.5",
      paths: ["ScrollTrigger.min.js", "dist/ScrollTrigger.min.js"],
    });
    expect(parseCdnUrl("https://cdnjs.cloudflare.com/ajax/libs/bodymovin/5.12.2/lottie.min.js")).toMatchObject({ name: "lottie-web", version: "5.12.2" });
  });

  it("reads a package's default file, with the fields each CDN reads it from", () => {
    expect(parseCdnUrl("https://cdn.jsdelivr.net/npm/d3@7.9.0")).toEqual({
      name: "d3",
      version: "7.9.0",
      paths: [],
      entryFields: ["jsdelivr", "browser", "main"],
    });
    expect(parseCdnUrl("https://unpkg.com/d3@7.9.0/")).toEqual({ name: "d3", version: "7.9.0", paths: [], entryFields: ["unpkg", "browser", "main"] });
  });

  it("leaves ranges, tags, generated bundles and other hosts to the network", () => {
    for (const url of [
      "https://cdn.jsdelivr.net/npm/gsap@3/dist/gsap.min.js",
      "https://cdn.jsdelivr.net/npm/gsap@latest/dist/gsap.min.js",
      "https://cdn.jsdelivr.net/npm/gsap/dist/gsap.min.js",
      "https://cdn.jsdelivr.net/npm/gsap@3.12.5/+esm",
      "https://cdn.jsdelivr.net/gh/user/repo@1.0.0/file.js",
      "https://cdnjs.cloudflare.com/ajax/libs/three.js/r128/three.min.js",
      "https://example.com/npm/gsap@3.12.5/dist/gsap.min.js",
      "not a url",
    ]) {
      expect(parseCdnUrl(url), url).toBeUndefined();
    }
  });
});
