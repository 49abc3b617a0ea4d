/**
 * What `compose doctor --json` prints, declared once: the CLI's checks are typed from it.
 */
import { z } from "zod";

/** pass: fine. warn: rendering works, but something is missing or tight. fail: compose render cannot work. */
export const DOCTOR_CHECK_STATUSES = ["pass", "warn", "fail"] as const;

const count = () => z.number().int().min(0);

export const doctorCheckSchema = z.strictObject({
  id: z.string().describe("Stable: node, ffmpeg, encoders, ffprobe, browser, docker, cores, memory, disk, ..."),
  name: z.string().describe("What was checked, as the text report shows it."),
  status: z.enum(DOCTOR_CHECK_STATUSES),
  detail: z.string(),
  fix: z.string().optional().describe("For warn and fail: the command (or step) that fixes it."),
});
export type DoctorCheck = z.infer<typeof doctorCheckSchema>;

export const doctorOutputSchema = z.strictObject({
  ok: z.boolean().describe("True when nothing that rendering needs failed (warnings allowed); the exit code is then 0."),
  passed: count(),
  warnings: count(),
  failed: count(),
  checks: z.array(doctorCheckSchema),
});
export type DoctorOutput = z.infer<typeof doctorOutputSchema>;
