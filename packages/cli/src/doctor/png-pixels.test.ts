import { deflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { decodePng, pixelAt } from "./png-pixels.js";

function crc32(bytes: Buffer): number {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

function chunk(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(body.length, 0);
  head.write(type, 4, "latin1");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), body])));
  return Buffer.concat([head, body, crc]);
}

/** Encodes rows of pixels, each row with its own filter type, as an encoder would. */
function encode(width: number, rows: number[][][], channels: 3 | 4, filters: number[]): Buffer {
  const stride = width * channels;
  const raw: number[] = [];
  const flat = rows.map((row) => row.flat());
  flat.forEach((row, y) => {
    const filter = filters[y % filters.length]!;
    raw.push(filter);
    for (let x = 0; x < stride; x++) {
      const left = x >= channels ? row[x - channels]! : 0;
      const up = y > 0 ? flat[y - 1]![x]! : 0;
      const upLeft = x >= channels && y > 0 ? flat[y - 1]![x - channels]! : 0;
      const p = left + up - upLeft;
      const paeth = Math.abs(p - left) <= Math.abs(p - up) && Math.abs(p - left) <= Math.abs(p - upLeft) ? left : Math.abs(p - up) <= Math.abs(p - upLeft) ? up : upLeft;
      const predicted = [0, left, up, (left + up) >> 1, paeth][filter]!;
      raw.push((row[x]! - predicted) & 0xff);
    }
  });
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(rows.length, 4);
  ihdr[8] = 8;
  ihdr[9] = channels === 4 ? 6 : 2;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(Buffer.from(raw))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

describe("decodePng", () => {
  const rgba = [
    [[255, 0, 0, 255], [0, 255, 0, 128], [0, 0, 255, 0]],
    [[10, 20, 30, 40], [200, 100, 50, 255], [1, 2, 3, 4]],
    [[90, 80, 70, 60], [0, 0, 0, 255], [255, 255, 255, 255]],
    [[12, 250, 7, 9], [130, 131, 132, 133], [240, 10, 250, 5]],
    [[5, 6, 7, 8], [250, 251, 252, 253], [100, 0, 100, 0]],
  ];

  it("reads RGBA pixels through every filter type", () => {
    const image = decodePng(encode(3, rgba, 4, [0, 1, 2, 3, 4]));
    expect([image.width, image.height]).toEqual([3, 5]);
    rgba.forEach((row, y) => row.forEach((pixel, x) => expect(pixelAt(image, x, y)).toEqual(pixel)));
  });

  it("reads RGB pixels as opaque", () => {
    const rgb = rgba.map((row) => row.map(([r, g, b]) => [r!, g!, b!]));
    const image = decodePng(encode(3, rgb, 3, [4, 3, 2, 1, 0]));
    rgb.forEach((row, y) => row.forEach((pixel, x) => expect(pixelAt(image, x, y)).toEqual([...pixel, 255])));
  });

  it("refuses what is not a PNG", () => {
    expect(() => decodePng(Buffer.from("GIF89a"))).toThrow("not a PNG image");
  });
});
