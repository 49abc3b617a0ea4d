/** Core's text helpers, which import nothing: `@compose/core/text` is this module; core's index exports all of it too. */
export { createLineIndex, type LineColumn } from "./line-index.js";
export { printable } from "./printable.js";
export { familySlug, isGenericFontFamily } from "./font-family.js";
export { fontFamilyUses, type FontFamilyUse } from "./font-family-uses.js";
export { plural } from "./plural.js";
export { listed } from "./listed.js";
export { momentLabel } from "./moment-label.js";
export { closestMatch } from "./closest.js";
