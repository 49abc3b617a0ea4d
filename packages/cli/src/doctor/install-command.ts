import { existsSync } from "node:fs";

/** Package names per package manager; apt (Debian, Ubuntu) is the one this project is set up with. */
export interface PackageNames {
  apt: string;
  dnf?: string;
  brew?: string;
}

export type PackageManager = "apt" | "dnf" | "brew" | "unknown";

export function detectPackageManager(platform: NodeJS.Platform = process.platform, exists: (path: string) => boolean = existsSync): PackageManager {
  if (platform === "darwin") return "brew";
  if (platform !== "linux") return "unknown";
  if (exists("/usr/bin/apt-get")) return "apt";
  if (exists("/usr/bin/dnf")) return "dnf";
  return "unknown";
}

/** The command that installs a package on this machine, e.g. `sudo apt-get install ffmpeg`. */
export function installCommand(names: PackageNames, manager: PackageManager = detectPackageManager()): string {
  switch (manager) {
    case "apt":
      return `sudo apt-get install ${names.apt}`;
    case "dnf":
      return `sudo dnf install ${names.dnf ?? names.apt}`;
    case "brew":
      return `brew install ${names.brew ?? names.apt}`;
    default:
      return `install ${names.apt} with your system's package manager`;
  }
}
