import { build } from "esbuild";
import { describe, expect, it } from "vitest";

const here = new URL(".", import.meta.url).pathname;

async function bundledInputs(contents: string): Promise<string[]> {
  const result = await build({
    stdin: { contents, resolveDir: here, loader: "ts" },
    bundle: true,
    platform: "browser",
    format: "esm",
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  return Object.keys(result.metafile.inputs);
}

// The page runtime bundles core with esbuild; these guard what it pulls in.
describe("core in the browser", () => {
  it("bundles for the browser, where a Node built-in would fail to resolve", async () => {
    const inputs = await bundledInputs('export * from "./index.ts";');
    expect(inputs.some((input) => input.includes("parse5"))).toBe(true);
  });

  it("keeps the timing and variables modules free of the HTML parser", async () => {
    const inputs = await bundledInputs(
      ["./timing/resolve-timing.ts", "./variables/resolve-values.ts", "./variables/validate-values.ts", "./variables/parse-declarations.ts"]
        .map((path) => `export * from "${path}";`)
        .join("\n"),
    );
    expect(inputs.filter((input) => input.includes("parse5"))).toEqual([]);
    expect(inputs.some((input) => input.includes("resolve-timing"))).toBe(true);
  });
});
