/**
 * Where ffmpeg reads a media source. A URL read under a network policy that refuses anything goes
 * through the render's policy proxy: every connection ffmpeg makes for it, each redirect
 * included, is then held to the policy and made to the address the policy checked.
 */
export interface MediaInput {
  /** A file path or an http(s) URL. */
  location: string;
  /** The policy proxy (http://127.0.0.1:port) that ffmpeg connects through. */
  proxy?: string;
}

/** ffmpeg's and ffprobe's options for opening `input`, which come just before it. */
export function inputOptions(input: MediaInput): string[] {
  return input.proxy ? ["-http_proxy", input.proxy] : [];
}
