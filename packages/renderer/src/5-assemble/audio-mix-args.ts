import { FORMAT_TABLE, type OutputFormat } from "@compose/core";
import type { AudioClip } from "../media/audio-clip.js";
import { inputOptions } from "../media/media-input.js";

export const AUDIO_SAMPLE_RATE = 48_000;

/** atempo takes 0.5 to 100 per instance, so slower rates are a product of several. */
export function tempoFactors(rate: number): number[] {
  const factors: number[] = [];
  let rest = rate;
  while (rest < 0.5) {
    factors.push(0.5);
    rest /= 0.5;
  }
  if (Math.abs(rest - 1) > 1e-9 || factors.length === 0) factors.push(Number(rest.toFixed(6)));
  return factors.filter((factor) => Math.abs(factor - 1) > 1e-9);
}

/** A format's audio encoder; the plan mixes audio for a format with sound only. */
function codecArgs(format: OutputFormat): string[] {
  const { codec, bitrate, file } = FORMAT_TABLE[format].audio!;
  // A bare AAC file (beside a png-sequence's frames) is ADTS; the others are muxed later.
  return ["-c:a", codec, "-b:a", bitrate, ...(file.endsWith(".aac") ? ["-f", "adts"] : [])];
}

/**
 * What every input of the mix (and both sides of a gain envelope's multiplication) is made into:
 * float, so that nothing is normalised on the way, at one rate, in stereo.
 */
const MIX_FORMAT = `aformat=sample_fmts=flt:sample_rates=${AUDIO_SAMPLE_RATE}:channel_layouts=stereo`;

/**
 * A browser plays a mono source at its own level in both channels; ffmpeg's own upmix would put
 * it 3 dB lower in each (a centre channel shared between two speakers).
 */
const MONO_IN_BOTH = "pan=stereo|c0=c0|c1=c0";

/**
 * Mixes every audible clip at its start, trimmed to its duration, at its volume and rate, into
 * one track exactly `total` seconds long, so audio and video lengths match. `envelopes[i]`, when
 * given, is a file of mono float gains in output time (writeEnvelope) that clip i is multiplied by.
 */
export function mixArgs(
  clips: readonly AudioClip[],
  total: number,
  format: OutputFormat,
  output: string,
  envelopes: ReadonlyArray<string | undefined> = [],
): string[] {
  const inputs = clips.flatMap((clip) => [
    ...(clip.mediaStart > 0 ? ["-ss", String(clip.mediaStart)] : []),
    "-t",
    String(clip.duration * clip.playbackRate),
    ...inputOptions(clip.input),
    "-i",
    clip.input.location,
  ]);
  const envelopeInputs: string[] = [];
  let envelopeCount = 0;
  const chains = clips.map((clip, i) => {
    const delay = Math.round(clip.start * 1000);
    const steps = [
      ...(clip.channels === 1 ? [MONO_IN_BOTH] : []),
      `aresample=${AUDIO_SAMPLE_RATE}`,
      ...tempoFactors(clip.playbackRate).map((factor) => `atempo=${factor}`),
      `volume=${clip.volume}`,
      `adelay=${delay}:all=1`,
      MIX_FORMAT,
    ];
    const envelope = envelopes[i];
    if (envelope === undefined) return `[${i}:a:0]${steps.join(",")}[a${i}]`;
    const input = clips.length + envelopeCount++;
    envelopeInputs.push("-f", "f32le", "-ar", String(AUDIO_SAMPLE_RATE), "-ac", "1", "-i", envelope);
    return `[${i}:a:0]${steps.join(",")}[s${i}];[${input}:a:0]${MONO_IN_BOTH},${MIX_FORMAT}[g${i}];[s${i}][g${i}]amultiply[a${i}]`;
  });
  const mixed = clips.map((_, i) => `[a${i}]`).join("");
  const graph = [...chains, `${mixed}amix=inputs=${clips.length}:normalize=0:duration=longest,apad=whole_dur=${total},atrim=end=${total}[mix]`].join(";");
  return [
    "-hide_banner",
    "-loglevel",
    "error",
    "-y",
    ...inputs,
    ...envelopeInputs,
    "-filter_complex",
    graph,
    "-map",
    "[mix]",
    "-ac",
    "2",
    "-ar",
    String(AUDIO_SAMPLE_RATE),
    ...codecArgs(format),
    output,
  ];
}
