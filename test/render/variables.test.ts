/**
 * --variables / --variables-file change what is rendered; values that do not match the
 * declarations give warnings (exit 0), or errors with --strict-variables (exit 1, no output);
 * unusable --variables input is a usage error (exit 2, one line).
 */
import { existsSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lines, limited, render, type CliResult, RENDER_HOOK_TIMEOUT_MS } from "../support/cli.js";
import { decodeFrame, findSpan, hex, isColour, type Frame } from "../support/media.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";
import { createToolTraps, type ToolTraps } from "../support/tool-traps.js";

const html = compositionHtml({
  id: "vars",
  duration: 0.04, // one frame at 30 fps
  backdrop: "#000000",
  variables: [
    { id: "boxColor", type: "color", label: "Box colour", default: "#ff0000" },
    {
      id: "mood",
      type: "enum",
      label: "Mood",
      default: "calm",
      options: [
        { value: "calm", label: "Calm" },
        { value: "loud", label: "Loud" },
      ],
    },
    { id: "size", type: "number", label: "Box width", default: 40, min: 10, max: 200 },
  ],
  css: `#box { position: absolute; left: 10px; top: 10px; height: 40px; }
        #mood { position: absolute; left: 10px; top: 100px; width: 40px; height: 40px; }`,
  body: `<div id="box"></div><div id="mood"></div>`,
  after: `<script>
    const { boxColor = "#ff0000", mood = "calm", size = 40 } = window.__compose.getVariables();
    const box = document.getElementById("box");
    box.style.background = boxColor;
    box.style.width = (typeof size === "number" ? size : 40) + "px";
    document.getElementById("mood").style.background = mood === "loud" ? "#ffffff" : mood === "calm" ? "#808080" : "#000000";
  </script>`,
});

const BAD_VALUES = JSON.stringify({ nope: 1, size: "big", mood: "angry" });

let project: TempProject;
let traps: ToolTraps;
const results = new Map<string, CliResult>();

function run(name: string, args: string[], env: Record<string, string> = {}) {
  return async () => {
    results.set(name, await render([".", "--format", "png-sequence", "--workers", "1", "--output", name, ...args], { cwd: project.dir, env }));
  };
}

beforeAll(async () => {
  project = await createProject({
    "index.html": html,
    "blue.json": JSON.stringify({ boxColor: "#0000ff" }),
    "broken.json": "{ boxColor: blue }",
    "many.json": JSON.stringify(Object.fromEntries(Array.from({ length: 15_000 }, (_, index) => [`key${index}`, 1]))),
  });
  traps = await createToolTraps();
  await limited(2, [
    run("defaults", []),
    run("inline", ["--variables", JSON.stringify({ boxColor: "#00ff00", mood: "loud", size: 80 })]),
    run("file", ["--variables-file", "blue.json"]),
    run("warnings", ["--variables", BAD_VALUES]),
    run("strict", ["--variables", BAD_VALUES, "--strict-variables"]),
    run("many", ["--variables-file", "many.json", "--quiet"]),
    run("malformed", ["--variables", "{boxColor:"], traps.env),
    run("array", ["--variables", '["#00ff00"]'], traps.env),
    run("number", ["--variables", "5"], traps.env),
    run("null", ["--variables", "null"], traps.env),
    run("missing-file", ["--variables-file", "no-such.json"], traps.env),
    run("directory-file", ["--variables-file", "."], traps.env),
    run("broken-file", ["--variables-file", "broken.json"], traps.env),
  ]);
}, RENDER_HOOK_TIMEOUT_MS);
afterAll(async () => {
  await project?.remove();
  await traps?.remove();
});

async function frameOf(name: string): Promise<Frame> {
  const result = results.get(name)!;
  expect(result.code, `${name}: ${result.stderr}`).toBe(0);
  return decodeFrame(project.path(name, "frame_000000.png"));
}

describe("variable values change the render", () => {
  it("without values, the declared defaults: a red box 40 px wide, calm mood", async () => {
    expect(results.get("defaults")!.stderr).toBe("");
    const frame = await frameOf("defaults");
    const span = findSpan(frame, 30, hex("#ff0000"));
    expect(span).toEqual({ left: 10, right: 49 });
    expect(isColour(frame, 30, 120, hex("#808080"), 4)).toBe(true);
  });

  it("--variables sets colour, number and enum: a green box 80 px wide, loud mood", async () => {
    expect(results.get("inline")!.stderr).toBe("");
    const frame = await frameOf("inline");
    expect(findSpan(frame, 30, hex("#00ff00"))).toEqual({ left: 10, right: 89 });
    expect(isColour(frame, 30, 30, hex("#ff0000"))).toBe(false);
    expect(isColour(frame, 30, 120, hex("#ffffff"), 4)).toBe(true);
  });

  it("--variables-file sets the values it holds; the others keep their defaults", async () => {
    expect(results.get("file")!.stderr).toBe("");
    const frame = await frameOf("file");
    expect(findSpan(frame, 30, hex("#0000ff"))).toEqual({ left: 10, right: 49 });
    expect(isColour(frame, 30, 120, hex("#808080"), 4)).toBe(true);
  });
});

describe("variable warnings", () => {
  it("undeclared, type-mismatch and enum-out-of-range are warned on stderr, one line each, and the render succeeds", async () => {
    const result = results.get("warnings")!;
    expect(result.code).toBe(0);
    const warnings = lines(result.stderr);
    expect(warnings, result.stderr).toHaveLength(3);
    const find = (code: string) => warnings.find((line) => line.includes(code));
    expect(find("undeclared")).toContain("nope");
    expect(find("type-mismatch")).toContain("size");
    expect(find("enum-out-of-range")).toContain("mood");
    expect(find("enum-out-of-range")).toContain("angry");
    expect(find("type-mismatch")).toMatch(/the default 40 is used$/);
    expect(find("enum-out-of-range")).toMatch(/the default "calm" is used$/);
    expect(find("undeclared")).toMatch(/; ignored$/);
  });

  it("past ten of one kind, the rest are counted in one line", () => {
    const result = results.get("many")!;
    expect(result.code, result.stderr).toBe(0);
    const warnings = lines(result.stderr);
    expect(warnings).toHaveLength(11);
    expect(warnings.slice(0, 10).every((line) => /^warning: \[undeclared\] "key\d+" is not a declared variable/.test(line))).toBe(true);
    expect(warnings[10]).toBe("warning: [undeclared] and 14,990 more undeclared keys");
  });

  it("a value that a warning refuses is not used: the page gets the declared default", async () => {
    const frame = await frameOf("warnings");
    // The script shows any mood but "loud" and "calm" as black; the default, calm, is grey.
    expect(isColour(frame, 30, 120, hex("#808080"), 4)).toBe(true);
  });

  it("--strict-variables turns them into an error: exit 1, one line, no output", async () => {
    const result = results.get("strict")!;
    expect(result.code).toBe(1);
    const errorLines = lines(result.stderr);
    expect(errorLines, result.stderr).toHaveLength(1);
    expect(errorLines[0]).toMatch(/^error: variables refused by --strict-variables, so the render stopped: /);
    for (const code of ["undeclared", "type-mismatch", "enum-out-of-range"]) expect(errorLines[0]).toContain(code);
    // Nothing was used in their place: the render did not go on.
    expect(errorLines[0]).not.toMatch(/is used|ignored/);
    expect(existsSync(project.path("strict"))).toBe(false);
  });
});

describe("unusable --variables input: exit 2 and one line", () => {
  const CASES: Record<string, string[]> = {
    malformed: ["--variables", "JSON"],
    array: ["--variables", "object"],
    number: ["--variables", "object"],
    null: ["--variables", "object"],
    "missing-file": ["--variables-file", "no-such.json"],
    "directory-file": ["--variables-file"],
    "broken-file": ["--variables-file", "broken.json", "JSON"],
  };
  for (const [name, mentions] of Object.entries(CASES)) {
    it(`${name}: ${mentions.join(", ")} named`, () => {
      const result = results.get(name)!;
      expect(result.code, result.stderr).toBe(2);
      const errorLines = lines(result.stderr);
      expect(errorLines, result.stderr).toHaveLength(1);
      expect(errorLines[0]).toMatch(/^error: /);
      for (const text of mentions) expect(errorLines[0]).toContain(text);
      expect(result.stdout).toBe("");
    });
  }

  it("none of them started a browser or wrote output", async () => {
    expect(await traps.started()).toEqual([]);
    const written = (await readdir(project.dir)).filter((name) => Object.keys(CASES).includes(name));
    expect(written).toEqual([]);
  });
});
