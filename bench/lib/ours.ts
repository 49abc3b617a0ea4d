/** One render as users get it (`--workers auto`, standard quality, mp4), printing its finished event as JSON. */
import { validateRenderOptions } from "@compose/core";
import { render } from "@compose/renderer";

const [composition, output] = process.argv.slice(2);
const result = validateRenderOptions({ workers: "auto" });
if (!result.ok || !composition || !output) throw new Error("usage: ours.ts <composition.html> <output.mp4>");
const finished = await render({ composition, output, options: result.options });
console.log(JSON.stringify(finished));
