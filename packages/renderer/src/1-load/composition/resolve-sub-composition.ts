import { dirname, join } from "node:path";

/**
 * Returns how to find the file a host's data-composition-src names. The src is a URL path: a query
 * or fragment is not part of the file name, percent-escapes are decoded, and a path starting with
 * "/" is relative to the project directory (the entry's), which is what the renderer serves as root.
 * Paths stay in the form they are given (relative stays relative), so messages can show them as is.
 */
export function createSubCompositionResolver(projectDir: string): (fromFile: string, src: string) => string {
  return (fromFile, src) => {
    const path = decodePath(src.split(/[?#]/, 1)[0] ?? "");
    return path.startsWith("/") ? join(projectDir, path) : join(dirname(fromFile), path);
  };
}

function decodePath(path: string): string {
  try {
    return decodeURI(path);
  } catch {
    return path;
  }
}
