import { Option, type Command } from "commander";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { detectPackageManager } from "../doctor/install-command.js";
import { engineErrorLine, probeDockerEngine } from "../docker/engine.js";
import { repositoryRoot } from "../docker/image.js";
import { ARCHIVES, buildImage, defaultCaCertificates, unreachableSourcesHint, type Archive } from "../docker/image-build.js";
import { UsageError } from "../usage-error.js";

interface BuildFlags {
  baseImage?: string;
  archive: string;
  debianMirror?: string;
  npmRegistry?: string;
  caCertificates?: string;
}

function checkedUrl(flag: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!/^https?:\/\/[^\s/]+/.test(value)) throw new UsageError(`${flag} ${JSON.stringify(value)} is not an http:// or https:// URL`);
  return value.replace(/\/+$/, "");
}

export function registerDocker(program: Command): void {
  const docker = program.command("docker").description("Container mode's image: build it (docs/container.md).");
  docker
    .command("build")
    .description("Build the image compose render --docker renders in, label it with the versions it holds and tag it by their digest; prints the tag.")
    .option("--base-image <image>", "any Debian 12 image the engine has or can pull (default: the Dockerfile's pinned debian:bookworm slim)")
    .addOption(
      new Option(
        "--archive <archive>",
        "snapshot: the Dockerfile's dated snapshot.debian.org and exact versions; current: whatever Debian's archive has now",
      ).default("snapshot"),
    )
    .option("--debian-mirror <url>", "where the archive is served: a mirror of snapshot.debian.org (--archive snapshot) or of deb.debian.org (current)")
    .option("--npm-registry <url>", "the npm registry Node.js, npm and the lock file's packages come from (default: https://registry.npmjs.org)")
    .option(
      "--ca-certificates <file>",
      "certificate authorities the build's downloads trust, not kept in the image (default: the host's /etc/ssl/certs/ca-certificates.crt, when present)",
    )
    .action(async (flags: BuildFlags) => {
      if (!(ARCHIVES as readonly string[]).includes(flags.archive)) {
        throw new UsageError(`--archive ${JSON.stringify(flags.archive)} is not one of ${ARCHIVES.join(", ")}`);
      }
      if (flags.baseImage !== undefined && flags.baseImage.trim() === "") throw new UsageError("--base-image names no image");
      const caCertificates = flags.caCertificates === undefined ? defaultCaCertificates() : resolve(flags.caCertificates);
      if (caCertificates !== undefined && !existsSync(caCertificates)) throw new UsageError(`--ca-certificates ${flags.caCertificates}: no such file`);
      const plan = {
        root: repositoryRoot(),
        baseImage: flags.baseImage,
        archive: flags.archive as Archive,
        debianMirror: checkedUrl("--debian-mirror", flags.debianMirror),
        npmRegistry: checkedUrl("--npm-registry", flags.npmRegistry),
        caCertificates,
      };
      const engine = await probeDockerEngine();
      if (engine.state !== "ready") {
        process.stderr.write(`error: ${engineErrorLine(engine, detectPackageManager(), null)}\n`);
        process.exitCode = 1;
        return;
      }
      const result = await buildImage(plan);
      if (result.built) {
        process.stdout.write(`${result.image.tag}\n`);
        return;
      }
      if (result.failure !== undefined) {
        const hint = unreachableSourcesHint(plan);
        process.stderr.write(`error: docker: building the image failed: ${result.failure}${hint === undefined ? "" : `; ${hint}`}\n`);
      }
      process.exitCode = result.code;
    });
}
