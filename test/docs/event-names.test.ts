/**
 * The documentation names the stream's events as the code types them: the producer's events table
 * lists exactly the events a stream carries, and no page speaks of an event that does not exist.
 * Nor of a page that does not exist: every Markdown file a page names is in the repository.
 */
import { readFileSync, readdirSync } from "node:fs";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";
import { JOB_EVENT_TYPES } from "@compose/producer";
import { REPO_ROOT } from "../support/project.js";

const PAGES = [
  "README.md",
  ...readdirSync(join(REPO_ROOT, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
  ...readdirSync(join(REPO_ROOT, "packages")).map((name) => `packages/${name}/README.md`),
  // The notes `compose init` gives every project.
  "packages/cli/templates/AGENTS.md",
].filter((page) => {
  try {
    readFileSync(join(REPO_ROOT, page));
    return true;
  } catch {
    return false;
  }
});

function read(page: string): string {
  return readFileSync(join(REPO_ROOT, page), "utf8");
}

/** The names in the first column of the table under the heading `### Events…`. */
function eventsTable(markdown: string): string[] {
  const section = markdown.split(/^### Events/m)[1]?.split(/^#{2,3} /m)[0] ?? "";
  return [...section.matchAll(/^\| `([a-z-]+)` \|/gm)].map((match) => match[1]!);
}

/** Every name a sentence gives as an event a stream carries: "streams get `x`", "end with `x`", "hears `x` then `y`". */
function namedEvents(markdown: string): string[] {
  const patterns = [/streams?\s+(?:gets?|ends?\s+with)\s+`([a-z-]+)`/g, /\bhears?\s+`([a-z-]+)`(?:\s+then\s+`([a-z-]+)`)?/g];
  return patterns.flatMap((pattern) => [...markdown.matchAll(pattern)].flatMap((match) => match.slice(1).filter((name): name is string => name !== undefined)));
}

describe("event names in the documentation", () => {
  it("the producer's events table lists exactly the events a stream carries", () => {
    expect(eventsTable(read("packages/producer/README.md")).sort()).toEqual([...JOB_EVENT_TYPES].sort());
  });

  it.each(PAGES)("%s names only events that exist", (page) => {
    const unknown = namedEvents(read(page)).filter((name) => !(JOB_EVENT_TYPES as readonly string[]).includes(name));
    expect(unknown).toEqual([]);
  });

  it("the pages do speak of events (the patterns still match the prose)", () => {
    expect(PAGES.flatMap((page) => namedEvents(read(page))).length).toBeGreaterThan(2);
  });
});

describe("pages named in the documentation", () => {
  it.each(PAGES)("%s names only Markdown files the repository holds", (page) => {
    const held = new Set(PAGES.map((each) => basename(each)));
    const named = [
      ...read(page)
        .replace(/https?:\/\/\S+/g, "")
        .matchAll(/[\w-]+\.md\b/g),
    ].map((match) => match[0]);
    expect(named.filter((name) => !held.has(name))).toEqual([]);
  });
});
