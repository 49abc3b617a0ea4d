import { createReadStream } from "node:fs";
import { basename } from "node:path";
import { byteRange, sendProjectFile, statOrUndefined, type ProjectFile } from "@compose/renderer/project";
import type { FastifyReply, FastifyRequest } from "fastify";
import { HttpError, outputGone } from "./errors.js";

/** Sends a file with its length, with single byte-range requests answered by 206 (or 416). */
export async function sendFile(request: FastifyRequest, reply: FastifyReply, path: string, contentType: string): Promise<FastifyReply> {
  const info = await statOrUndefined(path);
  if (!info?.isFile()) throw outputGone();
  const size = info.size;
  const range = byteRange(request.headers.range, size);
  if (range === "unsatisfiable") {
    throw new HttpError(416, "range-not-satisfiable", `the range ${request.headers.range} is outside the file's ${size} bytes`, undefined, {
      "content-range": `bytes */${size}`,
    });
  }
  const [start, end] = range ?? [0, size - 1];
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
