import { createReadStream } from "node:fs";
import { basename } from "node:path";
import { sendProjectFile, statOrUndefined, type ProjectFile } from "@compose/renderer/project";
import type { FastifyReply, FastifyRequest } from "fastify";
import { HttpError, outputGone } from "./errors.js";

type ByteRange = { start: number; end: number };

/**
 * The one range a `Range` header asks for, "unsatisfiable", or undefined to send the whole file.
 * A malformed header or several ranges are ignored, as RFC 9110 allows: clients of video files
 * ask for one range at a time.
 */
export function parseRange(header: string | undefined, size: number): ByteRange | "unsatisfiable" | undefined {
  const match = header === undefined ? null : /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === "" && match[2] === "")) return undefined;
  if (match[1] === "") {
    const suffix = Number(match[2]);
    return suffix === 0 || size === 0 ? "unsatisfiable" : { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const last = match[2] === "" ? Number.POSITIVE_INFINITY : Number(match[2]);
  if (last < start) return undefined;
  return start >= size ? "unsatisfiable" : { start, end: Math.min(last, size - 1) };
}

/** Sends a file with its length, with single byte-range requests answered by 206 (or 416). */
export async function sendFile(request: FastifyRequest, reply: FastifyReply, path: string, contentType: string): Promise<FastifyReply> {
  const info = await statOrUndefined(path);
  if (!info?.isFile()) throw outputGone();
  const size = info.size;
  const range = parseRange(request.headers.range, size);
  if (range === "unsatisfiable") {
    throw new HttpError(416, "range-not-satisfiable", `the range ${request.headers.range} is outside the file's ${size} bytes`, undefined, {
      "content-range": `bytes */${size}`,
    });
  }
  const { start, end } = range ?? { start: 0, end: size - 1 };
  if (range) reply.status(206).header("content-range", `bytes ${start}-${end}/${size}`);
  reply
    .header("accept-ranges", "bytes")
    .header("last-modified", info.mtime.toUTCString())
    .header("content-disposition", `inline; filename="${basename(path)}"`)
    .header("content-type", contentType)
    .header("content-length", String(Math.max(0, end - start + 1)));
  return reply.send(size === 0 ? "" : createReadStream(path, { start, end }));
}

/**
 * Sends a file opened and checked by the project-file rule (the renderer's openServedFile), from
 * its descriptor, as the renderer's project server sends it: what is sent is what was checked,
 * with its ETag when asked, one byte range, headers alone for HEAD.
 */
export function sendOpenedFile(request: FastifyRequest, reply: FastifyReply, file: ProjectFile, options: { etag: boolean }): void {
  reply.hijack();
  sendProjectFile(request.raw, reply.raw, file, options);
}
