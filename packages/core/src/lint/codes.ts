export const LINT_SEVERITIES = ["error", "warning"] as const;
export type LintSeverity = (typeof LINT_SEVERITIES)[number];

/** Every lint code with its severity. Codes are stable: tools and people filter on them. */
export const LINT_CODES = {
  // The composition element and attribute values.
  "no-composition-root": "error",
  "root-missing-attribute": "error",
  "invalid-attribute": "error",
  "host-missing-id": "error",
  // Render refuses both (odd-size only for mp4 and webm).
  "no-duration": "error",
  "odd-size": "warning",
  // Frames are data-width x data-height whatever CSS says, so a different CSS size crops or pads.
  "root-size-mismatch": "warning",
  // data-composition-variables.
  "variables-invalid-json": "error",
  "variables-not-array": "error",
  "variable-not-object": "error",
  "variable-missing-field": "error",
  "variable-invalid-field": "error",
  "variable-unknown-type": "error",
  "variable-duplicate-id": "error",
  "variable-default-mismatch": "error",
  "variable-invalid-options": "error",
  "variable-min-above-max": "error",
  "variable-invalid-step": "error",
  // data-variable-values on a sub-composition host.
  "variable-values-invalid-json": "error",
  "variable-values-not-object": "error",
  // An extra key does no harm at render time (the render only warns), but is likely a typo.
  "variable-values-undeclared": "warning",
  "variable-values-type-mismatch": "error",
  "variable-values-enum-out-of-range": "error",
  // Embedded composition files.
  "sub-composition-missing": "error",
  "sub-composition-unreadable": "error",
  "sub-composition-cycle": "error",
  // The project-file rule: a FIFO, device, directory, dotfile or link out of the project is never read.
  "not-a-project-file": "error",
  // Timing.
  "timing-bad-start": "error",
  "timing-unknown-reference": "error",
  "timing-reference-without-duration": "error",
  // The renderer probes the media file for its length, so this may well work; lint cannot tell.
  "timing-media-duration-unknown": "warning",
  "timing-cycle": "error",
  // Starts resolve an id to the first element that has it, as getElementById does.
  "timing-duplicate-id": "warning",
  "timing-negative-start": "error",
  "track-overlap": "warning",
  // Media.
  "inline-media": "warning",
  // Fonts: the render draws a family it cannot find with another font.
  "font-family-unknown": "warning",
  // A font package of the project that cannot be read: the render goes on without it (or without the face).
  "font-package-invalid": "warning",
  // A project file the page loads that is not there: render refuses it with the same code.
  "missing-asset": "error",
  // A remote URL that --network none refuses: only reported when lint is told that network.
  "network-refused": "warning",
  // Written for the other renderer of this contract: each finding says what to use instead.
  "foreign-runtime-api": "warning",
  "foreign-adapter-global": "warning",
  "foreign-seek-event": "warning",
  "foreign-no-timeline": "warning",
  "foreign-fps": "warning",
} as const satisfies Record<string, LintSeverity>;

export type LintCode = keyof typeof LINT_CODES;

/**
 * The project-file rule's code: the lint finding, the render's refusal and every read of a project
 * file (a FIFO, device, directory, dotfile or link out of the project) name a refusal with it.
 */
export const PROJECT_FILE_CODE = "not-a-project-file" satisfies LintCode;

/** A file of a project's font packages that keeps the package, or a face, from being used: lint's finding and the render's warning. */
export const FONT_PACKAGE_CODE = "font-package-invalid" satisfies LintCode;
