#!/usr/bin/env bash
# Idempotent set-up for a fresh Debian machine that has only Node.js:
# system packages, npm dependencies, build. Each step is skipped when already done.
set -euo pipefail
cd "$(dirname "$0")/.."

# python3, make and g++ build the server's state store (better-sqlite3) when npm finds no prebuilt binary for it.
packages=(chromium-headless-shell chromium firefox-esr ffmpeg fonts-dejavu-core fonts-liberation2 fonts-noto-color-emoji redis-server python3 make g++)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing Debian packages: ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -q
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: installing npm dependencies"
  # install, not ci: ci calls the lock file out of date when the registry does not serve some
  # platforms' optional packages (rollup's, esbuild's); install follows the lock all the same.
  npm install --no-audit --no-fund
fi

npm run --silent build
