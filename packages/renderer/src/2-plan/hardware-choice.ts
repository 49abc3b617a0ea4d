import { allowsHardwareEncoding, formatsWhere, type RenderOptions } from "@compose/core";
import { findHardwareEncoder, HARDWARE_ENCODERS, type HardwareEncoder } from "../common/hardware-encoder.js";
import type { HdrTransfer } from "../media/probe-source.js";
import type { RenderEvent } from "@compose/core";

/** The gpu option: the hardware H.264 encoder that works here, or a warning and software encoding. */
export async function chooseHardwareEncoder(
  options: RenderOptions,
  hdr: HdrTransfer | undefined,
  optionName: (field: string) => string,
  emit: (event: RenderEvent) => void,
): Promise<HardwareEncoder | undefined> {
  if (!options.gpu) return undefined;
  const warn = (message: string) => emit({ type: "warning", code: "gpu-unavailable", message });
  if (!allowsHardwareEncoding(options.format) || hdr) {
    warn(
      `${optionName("gpu")}: hardware encoding applies to SDR ${formatsWhere("hardware").join(" and ")} (H.264); ${hdr ? `HDR ${options.format}` : options.format} is encoded in software`,
    );
    return undefined;
  }
  const encoder = await findHardwareEncoder();
  if (!encoder) {
    const tried = HARDWARE_ENCODERS.map((candidate) => candidate.name).join(", ");
    warn(`${optionName("gpu")}: no working hardware H.264 encoder on this machine (tried ${tried}); encoding in software`);
  }
  return encoder;
}
