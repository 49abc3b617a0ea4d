import { isAbsolute, relative, resolve } from "node:path";
import { RenderError } from "../common/render-error.js";
import { deepFreeze } from "./make-plan.js";
import type { EncodeTarget, RenderPlan } from "./render-plan.js";

/**
 * A plan whose files are named relative to a directory that several machines see, each at a path
 * of its own, with those files named from `root`, this machine's view of it. A name that leads
 * out of the directory is refused: a plan writes nowhere else.
 */
export function rebasePlan(plan: RenderPlan, root: string): RenderPlan {
  const at = (path: string): string => {
    const where = resolve(root, path);
    const inside = relative(root, where);
    if (isAbsolute(path) || inside.startsWith("..") || isAbsolute(inside)) {
      throw new RenderError("invalid-output", `the plan names ${path}, which is not inside the directory it is rendered in (${root})`);
    }
    return where;
  };
  const target = (encodeTarget: EncodeTarget): EncodeTarget =>
    encodeTarget.kind === "sequence" ? { ...encodeTarget, directory: at(encodeTarget.directory) } : { ...encodeTarget, path: at(encodeTarget.path) };
  const { audio, assemble, output } = plan;
  return deepFreeze({
    ...plan,
    targets: plan.targets.map(target),
    audio: audio && { ...audio, output: at(audio.output), workDir: at(audio.workDir) },
    assemble: assemble && {
      ...assemble,
      parts: assemble.parts.map(at),
      audioFile: assemble.audioFile === undefined ? undefined : at(assemble.audioFile),
      into: at(assemble.into),
      workDir: at(assemble.workDir),
    },
    output: { ...output, path: at(output.path), stagedPath: at(output.stagedPath), workDir: at(output.workDir) },
  });
}
