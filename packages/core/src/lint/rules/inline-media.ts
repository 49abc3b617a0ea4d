import type { LintRule } from "./rule.js";

/** Assets are URL references resolved at render time, never inline base64. */
export const checkInlineMedia: LintRule = ({ parsed, report }) => {
  for (const media of parsed.media) {
    if (!/^\s*data:/i.test(media.url)) continue;
    report(
      "inline-media",
      media.loc,
      `<${media.tagName}> ${media.attribute} is an inline data: URL (${Math.ceil(media.url.length / 1024)} KiB); pass the file as a URL reference instead`,
    );
  }
};
