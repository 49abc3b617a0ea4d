import { watch, type FSWatcher } from "node:fs";
import { RENDERS_FOLDER } from "../project/renders-folder.js";

export interface ProjectWatcher {
  close(): void;
}

/** Dotfiles, editors' swap files, dependencies and the preview's own renders: not part of what the page shows. */
function ignored(file: string): boolean {
  const parts = file.split(/[\\/]/);
  return parts[0] === RENDERS_FOLDER || parts.some((part) => part.startsWith(".") || part === "node_modules") || /(~|\.swp|\.swx)$/.test(file);
}

/**
 * Calls `onChange` with the changed paths (relative to `root`) shortly after files change; bursts of
 * events (an editor's save is often several) become one call.
 */
export function watchProject(root: string, onChange: (files: string[]) => void, debounceMs = 25): ProjectWatcher {
  const pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  const listener = (_event: string, filename: string | Buffer | null) => {
    const file = filename === null ? "" : filename.toString();
    if (file !== "" && ignored(file)) return;
    pending.add(file);
    clearTimeout(timer);
    timer = setTimeout(() => {
      const files = [...pending].filter(Boolean);
      pending.clear();
      onChange(files);
    }, debounceMs);
  };
  let watcher: FSWatcher;
  try {
    watcher = watch(root, { recursive: true }, listener);
  } catch {
    // Recursive watching is not available everywhere; the top directory alone still covers most projects.
    watcher = watch(root, listener);
  }
  watcher.on("error", () => undefined);
  return {
    close() {
      clearTimeout(timer);
      watcher.close();
    },
  };
}
