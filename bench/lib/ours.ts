/**
 * One render as users get it (standard quality, mp4, `--workers auto` unless a count is given),
 * printing its finished event as JSON.
 */
import { validateRenderOptions } from "@compose/core";
import { render } from "@compose/renderer";

const [composition, output, workers = "auto"] = process.argv.slice(2);
const result = validateRenderOptions({ workers: workers === "auto" ? workers : Number(workers) });
if (!result.ok || !composition || !output) throw new Error("usage: ours.ts <composition.html> <output.mp4> [workers]");
const finished = await render({ composition, output, options: result.options });
console.log(JSON.stringify(finished));
