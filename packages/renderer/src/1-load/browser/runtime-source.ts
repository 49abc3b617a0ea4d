import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { ComposeBootConfig } from "@compose/runtime";

let bundle: string | undefined;

/** The page runtime followed by its boot call, ready for evaluateOnNewDocument. */
export function runtimeSource(config: ComposeBootConfig): string {
  bundle ??= readFileSync(createRequire(import.meta.url).resolve("@compose/runtime/runtime.iife.js"), "utf8");
  return `${bundle}\n;window.__composeBoot(${JSON.stringify(config)});`;
}
