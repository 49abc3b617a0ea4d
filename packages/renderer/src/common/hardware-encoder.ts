import { runFfmpeg } from "./ffmpeg-process.js";

/** A hardware H.264 encoder and how to drive it. */
export interface HardwareEncoder {
  name: string;
  /** Global options placed before the inputs (device selection). */
  deviceArgs: string[];
  /** Filters that move frames to the device, appended to the colour conversion. */
  uploadFilter: string | undefined;
  /** The codec options for a CRF-like quality level. */
  qualityArgs: (crf: number) => string[];
}

const VAAPI_DEVICE = process.env.COMPOSE_VAAPI_DEVICE || "/dev/dri/renderD128";

/** In the order tried: NVIDIA, VAAPI (Linux), Intel Quick Sync, Apple VideoToolbox. */
export const HARDWARE_ENCODERS: readonly HardwareEncoder[] = [
  { name: "h264_nvenc", deviceArgs: [], uploadFilter: undefined, qualityArgs: (crf) => ["-rc", "vbr", "-cq", String(crf), "-b:v", "0"] },
  { name: "h264_vaapi", deviceArgs: ["-vaapi_device", VAAPI_DEVICE], uploadFilter: "format=nv12,hwupload", qualityArgs: (crf) => ["-qp", String(crf)] },
  { name: "h264_qsv", deviceArgs: [], uploadFilter: undefined, qualityArgs: (crf) => ["-global_quality", String(crf)] },
  { name: "h264_videotoolbox", deviceArgs: [], uploadFilter: undefined, qualityArgs: (crf) => ["-q:v", String(Math.round(100 - crf * 1.5))] },
];

/** A real encode of a few frames: an encoder listed by ffmpeg may still have no device behind it. */
export function trialArgs(encoder: HardwareEncoder): string[] {
  return [
    "-hide_banner",
    "-loglevel",
    "error",
    ...encoder.deviceArgs,
    "-f",
    "lavfi",
    "-i",
    "color=black:s=256x144:r=30:d=0.2",
    ...(encoder.uploadFilter ? ["-vf", encoder.uploadFilter] : []),
    "-c:v",
    encoder.name,
    "-f",
    "null",
    "-",
  ];
}

let found: Promise<HardwareEncoder | undefined> | undefined;

/** The first hardware encoder that encodes for real on this machine; tried once per process. */
export function findHardwareEncoder(candidates: readonly HardwareEncoder[] = HARDWARE_ENCODERS): Promise<HardwareEncoder | undefined> {
  found ??= (async () => {
    for (const encoder of candidates) {
      if (
        await runFfmpeg(trialArgs(encoder)).then(
          () => true,
          () => false,
        )
      )
        return encoder;
    }
    return undefined;
  })();
  return found;
}
