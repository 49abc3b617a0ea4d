/**
 * Every flag of compose render, and the ones serve and worker share with it: the render options
 * of @compose/core (declared in packages/core/src/options/option-declarations.ts, which says what
 * is derived from them), and here the flags that are the CLI's own. ./flag-options.ts makes them
 * commander options.
 */
import { CONCURRENT_RENDERS, RENDER_OPTIONS, type FlagDeclaration } from "@compose/core/options";
import { DEFAULT_LIMITS, formatMemorySize } from "@compose/renderer/limits";

const RENDER_AND_CONTAINER = ["render", "container"] as const;
/** The limits' scopes: a snapshot loads the composition as a render does, so it refuses what a render refuses. */
const EVERYWHERE = ["render", "container", "serve-worker", "snapshot"] as const;

/** Keyed by the render option's JSON name, or for the CLI's own flags by commander's name for them; in --help order. */
export const FLAGS = {
  output: {
    flag: "-o, --output <path>",
    help: "output file, or a directory for png-sequence",
    defaultText: "renders/<name>.<format>; renders/<name>-frame-<n>.png with --frame",
    // Not passed on as typed: the container is given the path its directory is mounted at.
    scopes: ["render"],
  },
  frame: { flag: "--frame <n>", help: "render only frame n, as one PNG image", scopes: RENDER_AND_CONTAINER },
  time: { flag: "--time <seconds>", help: "render only the frame at this time, as one PNG image", scopes: RENDER_AND_CONTAINER },
  frames: { flag: "--frames <a-b>", help: "render only frames a to b, both included (a- for a to the end)", scopes: RENDER_AND_CONTAINER },
  ...RENDER_OPTIONS,
  variablesFile: {
    flag: "--variables-file <path>",
    help: "a JSON file holding variable values, under --variables",
    // Not passed on as typed: the container reads the file where it is mounted.
    scopes: ["render", "info", "snapshot"],
  },
  image: {
    flag: "--image <tag>",
    help: "with --docker: the image to render in, as compose docker build printed its tag",
    defaultText: "the image built from the Dockerfile's pins, built when missing",
    // Chooses the container, so it is not passed into it.
    scopes: ["render"],
  },
  batch: {
    flag: "--batch <file>",
    help: "render one output per row of FILE (a JSON array of variable objects, JSON Lines, or CSV with a header); --output is then a template with {index}, {ext} and {<variable>} (docs/batch.md)",
    defaultText: "none; outputs renders/<name>/{index}.{ext}",
    // Not passed on: the container renders one composition.
    scopes: ["render"],
  },
  batchConcurrency: {
    flag: "--batch-concurrency <n>",
    help: "with --batch: rows rendered at once",
    defaultText: "from the cores and memory",
    scopes: ["render"],
  },
  failFast: { flag: "--fail-fast", help: "with --batch: stop at the first row that fails", default: false, scopes: ["render"] },
  sharedFrames: {
    flag: "--shared-frames",
    help: "with --batch: a frame that paints as an earlier row's (an intro, an outro) takes that row's image instead of being captured again",
    defaultText: "on",
    negatedHelp: "with --batch: capture every frame of every row",
    scopes: ["render"],
  },
  resume: {
    flag: "--resume",
    help: "with --batch: skip rows whose output exists and was made from the same composition files, row and options",
    default: false,
    scopes: ["render"],
  },
  json: {
    flag: "--json",
    help: "write the render's events to stdout as JSON lines, one object a line and nothing else; with --batch each carries its row (docs/agents.md)",
    default: false,
    scopes: RENDER_AND_CONTAINER,
  },
  quiet: { flag: "--quiet", help: "print only errors and the output path", default: false, scopes: RENDER_AND_CONTAINER },
  maxConcurrentRenders: {
    flag: "--max-concurrent-renders <n>",
    help: `producer server only (compose serve): how many renders run at once, ${CONCURRENT_RENDERS.min}-${CONCURRENT_RENDERS.max}; checked here, no effect on one render`,
    default: CONCURRENT_RENDERS.default,
    scopes: RENDER_AND_CONTAINER,
    hidden: true,
  },
  maxFrames: { flag: "--max-frames <n>", help: "frames one render may capture", default: DEFAULT_LIMITS.maxFrames, scopes: EVERYWHERE },
  maxWidth: { flag: "--max-width <px>", help: "output width allowed: the composition's times --scale", default: DEFAULT_LIMITS.maxWidth, scopes: EVERYWHERE },
  maxHeight: {
    flag: "--max-height <px>",
    help: "output height allowed: the composition's times --scale",
    default: DEFAULT_LIMITS.maxHeight,
    scopes: EVERYWHERE,
  },
  maxMemory: {
    flag: "--max-memory <size>",
    help: "memory each page's browser may hold (script heap, typed arrays, canvases, images), such as 1G or 512M",
    default: formatMemorySize(DEFAULT_LIMITS.maxMemory),
    scopes: EVERYWHERE,
  },
  acceptRequestHosts: { flag: "--accept-request-hosts", help: "let requests add hosts of their own (allowHosts)", scopes: ["serve-worker"] },
} as const satisfies Record<string, FlagDeclaration>;

export type FlagField = keyof typeof FLAGS;
