/**
 * A font package that cannot be read never breaks a render, and is named: a package.json that is
 * not JSON (in the project, or in a parent folder the CLI looks in), a metadata.json whose
 * `styles` is not a list, or a damaged WOFF2 file is a `font-package-invalid` warning naming the
 * file (relative to the project) and what is wrong with it, and the render goes on without the
 * package or the face. `compose lint` reports the same finding; the server streams the warning and
 * finishes instead of failing with internal-error. No message tells the user to install a package
 * the project has.
 */
import { cp, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStream, type StreamEvent } from "../../packages/producer/test/support/http.js";
import { startServer, type TestServer } from "../../packages/producer/test/support/serve.js";
import { limited, lines, render, runCli, RENDER_HOOK_TIMEOUT_MS, type CliResult } from "../support/cli.js";
import { compositionHtml, createProject, REPO_ROOT, type TempProject } from "../support/project.js";

const PACKAGE = join(REPO_ROOT, "node_modules/@fontsource/space-mono");
const HTML = compositionHtml({
  id: "mono",
  duration: 0.1,
  backdrop: "#ffffff",
  body: `<div style="position:absolute;left:10px;top:60px;font:40px 'Space Mono', serif;color:#000">Ag Mono</div>`,
});
const WOFF2 = "files/space-mono-latin-400-normal.woff2";

/** The words of a JSON syntax error are the JavaScript engine's own. */
const NOT_JSON = /is not valid JSON: .+, so the package is not used$/;

/**
 * How each case damages its copy of @fontsource/space-mono, and the warning that names it: the
 * file (relative to the project) with its line and column as lint gives them, then what is wrong.
 */
const CASES = {
  "package.json that is not JSON": {
    damage: (pkg: string) => writeFile(join(pkg, "package.json"), '{\n  name: "@fontsource/space-mono"\n}\n'),
    file: "node_modules/@fontsource/space-mono/package.json",
    at: ":2:3",
    problem: NOT_JSON,
  },
  'metadata.json with "styles": "normal"': {
    damage: async (pkg: string) => {
      const metadata = JSON.parse(await readFile(join(pkg, "metadata.json"), "utf8"));
      await writeFile(join(pkg, "metadata.json"), JSON.stringify({ ...metadata, styles: "normal" }));
    },
    file: "node_modules/@fontsource/space-mono/metadata.json",
    at: "",
    problem: /^is not what compose reads: "styles" must be a list of styles such as \["normal", "italic"\] \(got "normal"\), so the package is not used$/,
  },
  "a damaged WOFF2 file": {
    damage: async (pkg: string) => writeFile(join(pkg, WOFF2), (await readFile(join(pkg, WOFF2))).subarray(0, 1000)),
    file: `node_modules/@fontsource/space-mono/${WOFF2}`,
    at: "",
    problem: /^is a damaged WOFF2 font: it is 1000 bytes, its header says \d+, so text in its face is drawn with another font$/,
  },
} as const;
type Case = keyof typeof CASES;
const NAMES = Object.keys(CASES) as Case[];

let project: TempProject;
let server: TestServer;
const renders = new Map<string, CliResult>();
const lints = new Map<string, CliResult>();
let streamed: StreamEvent[];

/** The composition in `dir`, and a copy of the package damaged by `damage` in the node_modules of `packagesDir` (the project, or a parent folder). */
async function damagedProject(dir: string, damage: (pkg: string) => Promise<void>, packagesDir = dir): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "index.html"), HTML);
  const pkg = join(packagesDir, "node_modules/@fontsource/space-mono");
  await cp(PACKAGE, pkg, { recursive: true });
  await damage(pkg);
}

beforeAll(async () => {
  project = await createProject({});
  for (const [index, name] of NAMES.entries()) await damagedProject(project.path(`case-${index}`), CASES[name].damage);
  // The CLI looks for packages in the project's parent folders too.
  await damagedProject(project.path("parent", "project"), CASES["package.json that is not JSON"].damage, project.path("parent"));
  const folders = [...NAMES.map((_, index) => `case-${index}`), "parent/project"];
  await limited(2, [
    ...folders.map((folder) => async () => {
      renders.set(folder, await render([project.path(folder), "--format", "png-sequence", "--output", project.path("out", folder), "--workers", "1"]));
    }),
    ...folders.map((folder) => async () => {
      lints.set(folder, await runCli(["lint", folder], { cwd: project.dir }));
    }),
  ]);
  server = await startServer();
  await damagedProject(join(server.projectsDir, "served"), CASES["package.json that is not JSON"].damage);
  const client = await openStream(server.url, { composition: "served", format: "png-sequence", workers: 1 });
  streamed = await client.ended;
}, RENDER_HOOK_TIMEOUT_MS);

afterAll(async () => {
  await server?.close();
  await project?.remove();
});

function warningsOf(result: CliResult, code: string): string[] {
  return lines(result.stderr)
    .filter((line) => line.startsWith(`warning: [${code}] `))
    .map((line) => line.slice(`warning: [${code}] `.length));
}

/** A warning that names `file` (at `at`) and says what `problem` matches. */
function expectNamed(warning: string | undefined, file: string, at: string, problem: RegExp): void {
  expect(warning?.startsWith(`${file}${at} `), warning).toBe(true);
  expect(warning!.slice(`${file}${at} `.length)).toMatch(problem);
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

describe.each(NAMES.map((name, index) => [name, `case-${index}`] as const))("a font package with %s", (name, folder) => {
  const { file, at, problem } = CASES[name];

  it("renders, with one warning naming the file and what is wrong with it, and no advice to install it", () => {
    const result = renders.get(folder)!;
    expect(result.code, result.stderr).toBe(0);
    const warnings = warningsOf(result, "font-package-invalid");
    expect(warnings).toHaveLength(1);
    expectNamed(warnings[0], file, at, problem);
    expect(result.stderr).not.toContain("compose fonts add");
  });

  it("is the same finding in compose lint", () => {
    const result = lints.get(folder)!;
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const findings = lines(result.stdout).filter((line) => line.includes("font-package-invalid"));
    expect(findings).toHaveLength(1);
    // `file:line:column  warning  code  message`, the file relative to the current directory.
    const [, position, message] = new RegExp(`^${escape(`${folder}/${file}`)}(:\\d+:\\d+)  warning  font-package-invalid  (.*)$`).exec(findings[0]!) ?? [];
    expect(position, findings[0]).toBe(at || ":1:1");
    expect(message).toMatch(problem);
    expect(result.stdout).not.toContain("compose fonts add");
  });
});

describe("a package that cannot be read", () => {
  const { file, at } = CASES["package.json that is not JSON"];

  it("in a parent folder is named as the project reaches it", () => {
    const result = renders.get("parent/project")!;
    expect(result.code, result.stderr).toBe(0);
    const warnings = warningsOf(result, "font-package-invalid");
    expect(warnings).toHaveLength(1);
    expectNamed(warnings[0], `../${file}`, at, NOT_JSON);
    expect(warningsOf(result, "font-fallback")[0]).toContain("the project's package ../node_modules/@fontsource/space-mono has no face the browser could draw");
    expect(lints.get("parent/project")!.stdout).toMatch(new RegExp(`^parent/${escape(file)}${at}  warning  font-package-invalid  is not valid JSON`, "m"));
  });

  it("is a warning of a render through the server, which finishes", () => {
    const warnings = streamed.filter((event) => event.event === "warning" && event.data.code === "font-package-invalid");
    expect(warnings).toHaveLength(1);
    expectNamed(warnings[0]!.data.message, file, at, NOT_JSON);
    expect(streamed.at(-1)?.event, JSON.stringify(streamed.at(-1))).toBe("finished");
  });
});
