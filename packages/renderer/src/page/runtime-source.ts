import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { runtimeBootCall as bootCall } from "@compose/core";
import type { ComposeBootConfig } from "@compose/runtime";

let bundle: string | undefined;

/** The page runtime's bundle, which installs nothing until its boot call runs. */
export function runtimeBundle(): string {
  bundle ??= readFileSync(createRequire(import.meta.url).resolve("@compose/runtime/runtime.iife.js"), "utf8");
  return bundle;
}

/** The boot call that installs the runtime with `config`, safe inside an HTML <script> element too. */
export const runtimeBootCall: (config: ComposeBootConfig) => string = bootCall;

/** The page runtime followed by its boot call, ready for evaluateOnNewDocument. */
export function runtimeSource(config: ComposeBootConfig): string {
  return `${runtimeBundle()}\n${runtimeBootCall(config)}`;
}
