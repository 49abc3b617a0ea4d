/**
 * What `compose benchmark --json` prints, declared once: the CLI's results are typed from it.
 */
import { z } from "zod";
import { FRAME_RATES, OUTPUT_FORMATS, QUALITY_NAMES } from "../options/option-declarations.js";

const count = () => z.number().int().min(0);
const milliseconds = () => z.number().min(0);

export const benchmarkRunSchema = z.strictObject({
  workers: z.number().int().min(1),
  frames: count(),
  framesPerSecond: z.number().min(0).describe("Frames per second while capturing (browsers started and pages loaded): the rate long renders get."),
  wallMs: milliseconds().describe("From the request to the committed output, browser starts included."),
  captureMs: milliseconds(),
  peakMemoryBytes: count().describe("Peak resident memory of the process and everything it started, during the run."),
});

export const benchmarkRecommendationSchema = z.strictObject({
  workers: z.number().int().min(1),
  maxConcurrentRenders: z.number().int().min(1),
  concurrentRange: z.tuple([z.number().int().min(1), z.number().int().min(1)]).describe("The recommended range for this many cores, e.g. [3, 4] for 16 cores."),
  reasons: z.array(z.string()),
});

export const benchmarkOutputSchema = z.strictObject({
  composition: z.strictObject({ id: z.string(), file: z.string(), width: count(), height: count() }),
  slice: z
    .strictObject({ startFrame: count(), endFrame: count(), frames: count(), seconds: z.number().min(0) })
    .describe("The slice rendered: composition frames [startFrame, endFrame)."),
  fps: z.union(FRAME_RATES.map((rate) => z.literal(rate))),
  format: z.enum(OUTPUT_FORMATS),
  quality: z.enum(QUALITY_NAMES),
  machine: z.strictObject({ cores: z.number().int().min(1), totalMemoryBytes: count() }),
  runs: z.array(benchmarkRunSchema).describe("One a worker count tried, fewest workers first."),
  recommended: benchmarkRecommendationSchema,
});
export type BenchmarkOutput = z.infer<typeof benchmarkOutputSchema>;
export type BenchmarkRun = z.infer<typeof benchmarkRunSchema>;
export type BenchmarkRecommendation = z.infer<typeof benchmarkRecommendationSchema>;
