import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import { pipeline } from "node:stream";
import { lookup } from "mrmime";
import type { ProjectFile } from "../common/project-file.js";

/**
 * The one byte range a Range header asks of `size` bytes, as [first, last]; "unsatisfiable" when
 * it starts past the end; undefined to send the whole file (no header, or one this server does
 * not take: several ranges, another unit, a malformed one). Clients of video files ask for one
 * range at a time. Every server of compose reads ranges with it.
 */
export function byteRange(header: string | undefined, size: number): [number, number] | "unsatisfiable" | undefined {
  const match = header === undefined ? null : /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === "" && match[2] === "")) return undefined;
  if (match[1] === "") {
    // A suffix: the last n bytes.
    const length = Number(match[2]);
    return length === 0 || size === 0 ? "unsatisfiable" : [Math.max(0, size - length), size - 1];
  }
  const first = Number(match[1]);
  const last = match[2] === "" ? Number.POSITIVE_INFINITY : Number(match[2]);
  // A reversed range is malformed, whatever the size: ignored, as RFC 9110 says.
  if (last < first) return undefined;
  return first >= size ? "unsatisfiable" : [first, Math.min(last, size - 1)];
}

/**
 * Sends an opened project file (openProjectFile) from its descriptor, so that what is sent is
 * what was checked, and closes it: one byte range when asked (media elements seek), headers
 * alone for HEAD. With `etag`, the browser revalidates on every load and an unchanged file is a
 * 304; without, it keeps nothing.
 */
export function sendProjectFile(request: IncomingMessage, response: ServerResponse, file: ProjectFile, options: { etag: boolean }): void {
  const { handle, info } = file;
  const type = lookup(file.path);
  const headers: OutgoingHttpHeaders = {
    ...(type && { "Content-Type": type === "text/html" ? "text/html; charset=utf-8" : type }),
    "Last-Modified": info.mtime.toUTCString(),
    "Accept-Ranges": "bytes",
    "Cache-Control": options.etag ? "no-cache" : "no-store",
  };
  const done = () => void handle.close().catch(() => undefined);
  if (options.etag) {
    headers.ETag = `W/"${info.size}-${info.mtime.getTime()}"`;
    if (request.headers["if-none-match"] === headers.ETag) {
      response.writeHead(304, headers).end();
      return done();
    }
  }
  const range = byteRange(request.headers.range, info.size);
  if (range === "unsatisfiable") {
    response.writeHead(416, { ...headers, "Content-Range": `bytes */${info.size}` }).end();
    return done();
  }
  const [start, end] = range ?? [0, info.size - 1];
  if (range) headers["Content-Range"] = `bytes ${start}-${end}/${info.size}`;
  response.writeHead(range ? 206 : 200, { ...headers, "Content-Length": end - start + 1 });
  if (request.method === "HEAD" || end < start) {
    response.end();
    return done();
  }
  // The stream closes the descriptor when it ends, fails, or the client goes away.
  pipeline(handle.createReadStream({ start, end }), response, () => undefined);
}
