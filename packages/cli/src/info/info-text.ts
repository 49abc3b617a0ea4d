import { plural, printable, type CompositionInfoReport, type FolderInfoReport } from "@compose/core";

/** Seconds as a person reads them: `2 s`, `1.5 s`, `0.333 s`. */
function seconds(value: number | null): string {
  return value === null ? "?" : `${Number(value.toFixed(3))} s`;
}

function size(width: number | null, height: number | null): string {
  return width === null || height === null ? "no size" : `${width}x${height}`;
}

/** `label   first line`, then further lines under the first, aligned. */
function section(label: string, lines: string[]): string[] {
  const pad = " ".repeat(12);
  return (lines.length === 0 ? ["none"] : lines).map((line, i) => `${i === 0 ? label.padEnd(12) : pad}${line}`);
}

function variableLines(report: CompositionInfoReport): string[] {
  const declared = report.variables.map((variable) => `${variable.id} (${variable.type}) = ${JSON.stringify(variable.value)}`);
  return [...declared, ...report.variableIssues.map((issue) => `warning: [${issue.code}] ${issue.message}`)];
}

function instanceLines(report: CompositionInfoReport): string[] {
  return report.subCompositions.flatMap((sub) =>
    sub.instances.map((instance) => {
      const values = Object.keys(instance.values).length === 0 ? "" : ` ${JSON.stringify(instance.values)}`;
      return `${instance.id ?? "(no id)"}: ${sub.file} at ${seconds(instance.start)} for ${seconds(instance.duration ?? sub.duration)}${values}`;
    }),
  );
}

function mediaLines(report: CompositionInfoReport): string[] {
  return report.media.map((media) => {
    const name = media.id === null ? media.kind : `${media.kind} ${media.id}`;
    const sound = media.audio === null ? "" : media.audio ? ", with sound" : ", silent";
    return `${name}: ${media.src ?? "(set by a script)"} at ${seconds(media.start)} for ${media.duration === null ? "its file's length" : seconds(media.duration)}${sound}`;
  });
}

function fontLines(report: CompositionInfoReport): string[] {
  return report.fonts.map(({ family, source, drawnWith }) => {
    const drawn = drawnWith !== null && drawnWith.toLowerCase() !== family.toLowerCase() ? `, drawn with ${drawnWith}` : "";
    return `${family}: ${source === "none" ? "no font of this name" : source}${drawn}`;
  });
}

function networkLines(report: CompositionInfoReport): string[] {
  const { mode, allowHosts, urls } = report.network;
  const policy = `--network ${mode}${allowHosts.map((host) => ` --allow-host ${host}`).join("")}`;
  const answers = { project: "served by the project's packages", allowed: "allowed", refused: "refused" };
  return [policy, ...urls.map((url) => `${url.url}: ${answers[url.answer]}${url.reason === null ? "" : ` (${url.reason})`}, from ${url.file} ${url.what}`)];
}

/** `compose info` as a person reads it: one line a fact, sections aligned. */
export function formatInfoText(report: CompositionInfoReport): string {
  const duration = report.duration === null ? "unknown" : `${seconds(report.duration)} (${report.durationSource})`;
  const page = `${report.page.loaded ? "loaded" : "not loaded"}: ${report.page.reason}`;
  const lines = [
    ...section("composition", [`${report.id ?? "(none)"} in ${report.file}`]),
    ...section("size", [size(report.width, report.height)]),
    ...section("duration", [duration]),
    ...section("page", [page, ...report.page.warnings.map((warning) => `warning: [${warning.code}] ${warning.message}`)]),
    ...section("variables", variableLines(report)),
    ...section("instances", instanceLines(report)),
    ...section("media", mediaLines(report)),
    ...section("fonts", fontLines(report)),
    ...section("network", networkLines(report)),
    ...section("lint", [`${plural(report.lint.errors, "error")}, ${plural(report.lint.warnings, "warning")} (compose lint lists them)`]),
  ];
  return `${lines.map(printable).join("\n")}\n`;
}

/** A folder's compositions, one a line. */
export function formatFolderText(report: FolderInfoReport): string {
  const width = Math.max(0, ...report.compositions.map((composition) => composition.file.length));
  const lines = [
    `${report.folder} has no index.html; ${plural(report.compositions.length, "composition")} in it:`,
    ...report.compositions.map(
      ({ file, id, width: w, height, duration }) =>
        `  ${file.padEnd(width)}  ${id}  ${size(w, height)}  ${duration === null ? "duration from its page" : seconds(duration)}`,
    ),
  ];
  return `${lines.map(printable).join("\n")}\n`;
}
