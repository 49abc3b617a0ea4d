import { isAbsolute, relative, sep } from "node:path";

/** Whether `path` is `root` or lies under it, as written (resolve symbolic links first to ask where a file really is). */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}
