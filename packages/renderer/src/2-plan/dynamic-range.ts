import { FORMAT_TABLE, formatsWhere, type RenderOptions } from "@compose/core";
import type { HdrTransfer } from "../media/probe-source.js";
import type { RenderEvent } from "@compose/core";

/**
 * SDR or HDR output: HDR when an HDR source is found (or --hdr asks for it) and the format is
 * mp4; --sdr always wins. --hdr without an HDR source gives PQ.
 */
export function chooseDynamicRange(options: RenderOptions, detected: HdrTransfer | undefined, emit: (event: RenderEvent) => void): HdrTransfer | undefined {
  if (options.sdr) return undefined;
  if (options.hdr) return detected ?? "pq";
  if (!detected) return undefined;
  if (FORMAT_TABLE[options.format].hdr) return detected;
  emit({
    type: "warning",
    code: "hdr-as-sdr",
    message: `the composition has HDR video, but HDR output is ${formatsWhere("hdr").join(" and ")} only: ${options.format} is rendered in SDR`,
  });
  return undefined;
}
