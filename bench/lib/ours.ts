/**
 * One render as users get it (standard quality, mp4, `--workers auto` unless a count is given, at
 * scale 1 unless one is given), printing its finished event as JSON.
 */
import { validateRenderOptions } from "@compose/core";
import { render } from "@compose/renderer";

const [composition, output, workers = "auto", scale = "1"] = process.argv.slice(2);
const result = validateRenderOptions({ workers: workers === "auto" ? workers : Number(workers), scale: Number(scale) });
if (!result.ok || !composition || !output) throw new Error("usage: ours.ts <composition.html> <output.mp4> [workers] [scale]");
const finished = await render({ composition, output, options: result.options });
console.log(JSON.stringify(finished));
