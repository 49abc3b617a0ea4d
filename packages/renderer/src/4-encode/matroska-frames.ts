import type { FrameImageFormat } from "../common/frame-image.js";

/**
 * A live Matroska stream of still images, each with its own timestamp. An image shown for
 * several frames is sent once and ffmpeg's fps filter repeats the decoded frame: a reused frame
 * costs neither a JPEG or PNG decode nor a colour conversion. image2pipe, the alternative, has no
 * timestamps and needs every frame's bytes.
 */

/** Timestamps in microseconds: exact enough that ffmpeg maps each to its frame at any fps. */
const TIMESTAMP_SCALE_NS = 1000;
const UNKNOWN_SIZE = Buffer.from([0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);

const ID = {
  ebml: 0x1a45dfa3,
  ebmlVersion: 0x4286,
  ebmlReadVersion: 0x42f7,
  maxIdLength: 0x42f2,
  maxSizeLength: 0x42f3,
  docType: 0x4282,
  docTypeVersion: 0x4287,
  docTypeReadVersion: 0x4285,
  segment: 0x18538067,
  info: 0x1549a966,
  timestampScale: 0x2ad7b1,
  muxingApp: 0x4d80,
  writingApp: 0x5741,
  tracks: 0x1654ae6b,
  trackEntry: 0xae,
  trackNumber: 0xd7,
  trackUid: 0x73c5,
  trackType: 0x83,
  codecId: 0x86,
  codecPrivate: 0x63a2,
  video: 0xe0,
  pixelWidth: 0xb0,
  pixelHeight: 0xba,
  cluster: 0x1f43b675,
  clusterTimestamp: 0xe7,
  simpleBlock: 0xa3,
} as const;

function idBytes(id: number): Buffer {
  const length = id > 0xffffff ? 4 : id > 0xffff ? 3 : id > 0xff ? 2 : 1;
  const bytes = Buffer.alloc(length);
  bytes.writeUIntBE(id, 0, length);
  return bytes;
}

/** Every size in the 8-byte form: simpler than the shortest, and allowed by MaxSizeLength 8. */
function sizeBytes(size: number): Buffer {
  const bytes = Buffer.alloc(8);
  bytes.writeBigUInt64BE(BigInt(size));
  bytes[0] = 0x01;
  return bytes;
}

function element(id: number, ...data: Buffer[]): Buffer {
  const body = Buffer.concat(data);
  return Buffer.concat([idBytes(id), sizeBytes(body.length), body]);
}

function uint(id: number, value: number): Buffer {
  const bytes = Buffer.alloc(8);
  bytes.writeBigUInt64BE(BigInt(value));
  return element(id, bytes);
}

function text(id: number, value: string): Buffer {
  return element(id, Buffer.from(value, "ascii"));
}

/** PNG has no Matroska codec id of its own; it travels as a Video for Windows stream ('MPNG'). */
function pngBitmapInfoHeader(width: number, height: number): Buffer {
  const header = Buffer.alloc(40);
  header.writeUInt32LE(40, 0);
  header.writeInt32LE(width, 4);
  header.writeInt32LE(height, 8);
  header.writeUInt16LE(1, 12);
  header.writeUInt16LE(32, 14);
  header.write("MPNG", 16, "ascii");
  return header;
}

export interface MatroskaFrameStream {
  /** Bytes that open the stream: the header and the one video track. */
  header: Buffer;
  /**
   * The bytes that carry one image shown from frame `index` (counted from 0 at `fps`) on: a short
   * prefix, then the image itself, which is never copied.
   */
  frame(index: number, image: Buffer): [Buffer, Buffer];
}

export function matroskaFrameStream(image: FrameImageFormat, fps: number, width: number, height: number): MatroskaFrameStream {
  const codec =
    image === "jpeg" ? [text(ID.codecId, "V_MJPEG")] : [text(ID.codecId, "V_MS/VFW/FOURCC"), element(ID.codecPrivate, pngBitmapInfoHeader(width, height))];
  const header = Buffer.concat([
    element(
      ID.ebml,
      uint(ID.ebmlVersion, 1),
      uint(ID.ebmlReadVersion, 1),
      uint(ID.maxIdLength, 4),
      uint(ID.maxSizeLength, 8),
      text(ID.docType, "matroska"),
      uint(ID.docTypeVersion, 4),
      uint(ID.docTypeReadVersion, 2),
    ),
    idBytes(ID.segment),
    UNKNOWN_SIZE,
    element(ID.info, uint(ID.timestampScale, TIMESTAMP_SCALE_NS), text(ID.muxingApp, "compose"), text(ID.writingApp, "compose")),
    element(
      ID.tracks,
      element(
        ID.trackEntry,
        uint(ID.trackNumber, 1),
        uint(ID.trackUid, 1),
        uint(ID.trackType, 1),
        ...codec,
        element(ID.video, uint(ID.pixelWidth, width), uint(ID.pixelHeight, height)),
      ),
    ),
  ]);
  // Track 1, relative timestamp 0, keyframe.
  const blockHeader = Buffer.from([0x81, 0x00, 0x00, 0x80]);
  const simpleBlockId = idBytes(ID.simpleBlock);
  const clusterId = idBytes(ID.cluster);
  return {
    header,
    frame(index, data) {
      const timestamp = uint(ID.clusterTimestamp, Math.round((index * 1e9) / TIMESTAMP_SCALE_NS / fps));
      const blockSize = blockHeader.length + data.length;
      const clusterSize = timestamp.length + simpleBlockId.length + 8 + blockSize;
      const prefix = Buffer.concat([clusterId, sizeBytes(clusterSize), timestamp, simpleBlockId, sizeBytes(blockSize), blockHeader]);
      return [prefix, data];
    },
  };
}
