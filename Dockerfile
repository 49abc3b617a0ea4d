# The image `compose render --docker` renders in, tagged compose-render:<version of the CLI>.
# `compose render --docker` builds it from the repository root when the engine lacks it; by hand:
#
#   docker build -t compose-render:0.1.0 .
#
# Everything that changes pixels is pinned (docs/container.md says why each pin is there):
# - the base image: Debian 12 "bookworm", slim, by dated tag AND digest;
# - the Debian archive: snapshot.debian.org at one instant, so every dependency of the browser
#   (freetype, harfbuzz, fontconfig, skia's libraries...) is the same on every build;
# - chromium-headless-shell, ffmpeg, the fonts and Node.js: exact package versions. When an exact
#   version cannot be installed the build fails; it never falls back to another version.
#
# These are the versions of the machine the project is developed and tested on.

# debian:bookworm-20260918-slim, multi-platform index digest as published in
# https://github.com/docker-library/repo-info/blob/master/repos/debian/remote/bookworm-20260918-slim.md
ARG BASE_IMAGE=debian:bookworm-20260918-slim@sha256:3783cc01769c7b2b1b83a5c5ad96c815348e28ed7da68e2e3687004faa906251

# ---------------------------------------------------------------------------------------------
# Debian with apt pointed at the snapshot. DEBIAN_SNAPSHOT="" uses deb.debian.org instead (the
# exact versions below then install only while they are the archive's current ones). A snapshot's
# Release files are past their Valid-Until date by design, hence Check-Valid-Until "false".
FROM ${BASE_IMAGE} AS debian
ARG DEBIAN_SNAPSHOT=20261121T000000Z
RUN set -eu; \
    if [ -n "$DEBIAN_SNAPSHOT" ]; then \
      printf '%s\n' \
        'Types: deb' \
        "URIs: http://snapshot.debian.org/archive/debian/${DEBIAN_SNAPSHOT}" \
        'Suites: bookworm bookworm-updates' \
        'Components: main' \
        'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg' \
        '' \
        'Types: deb' \
        "URIs: http://snapshot.debian.org/archive/debian-security/${DEBIAN_SNAPSHOT}" \
        'Suites: bookworm-security' \
        'Components: main' \
        'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg' \
        > /etc/apt/sources.list.d/debian.sources; \
      echo 'Acquire::Check-Valid-Until "false";' > /etc/apt/apt.conf.d/10snapshot; \
    fi; \
    echo 'Acquire::Retries "5";' > /etc/apt/apt.conf.d/20retries

# ---------------------------------------------------------------------------------------------
# NodeSource's signing key, fetched and checked against its fingerprint in a throw-away stage
# (curl and gnupg stay out of the final image).
FROM debian AS nodesource-key
ARG NODESOURCE_KEY_FINGERPRINT=6F71F525282841EEDAF851B42F59B5F99B1BE0B4
RUN set -eu; \
    apt-get update; \
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ca-certificates curl gnupg; \
    curl -fsSL https://deb.nodesource.com/gpgkey/nodesource-repo.gpg.key -o /tmp/nodesource.asc; \
    primary="$(gpg --batch --show-keys --with-colons /tmp/nodesource.asc \
      | awk -F: '$1 == "pub" { want = 1; next } want && $1 == "fpr" { print $10; want = 0 }')"; \
    if [ "$primary" != "$NODESOURCE_KEY_FINGERPRINT" ]; then \
      echo "NodeSource key fingerprint is '$primary', expected $NODESOURCE_KEY_FINGERPRINT" >&2; exit 1; \
    fi; \
    gpg --batch --dearmor -o /nodesource.gpg /tmp/nodesource.asc

# ---------------------------------------------------------------------------------------------
# The renderer's system: Node.js, the browser, ffmpeg, fonts. /compose/home (world-writable, sticky)
# is the HOME of whatever user `docker run --user` names; /compose/project and /compose/variables
# are where the CLI mounts a render's composition and variables file.
FROM debian AS compose
COPY --from=nodesource-key /nodesource.gpg /usr/share/keyrings/nodesource.gpg
RUN set -eu; \
    apt-get update; \
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      ca-certificates=20250419~deb12u2; \
    printf '%s\n' \
      'Types: deb' \
      'URIs: https://deb.nodesource.com/node_20.x' \
      'Suites: nodistro' \
      'Components: main' \
      'Signed-By: /usr/share/keyrings/nodesource.gpg' \
      > /etc/apt/sources.list.d/nodesource.sources; \
    apt-get update; \
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      nodejs=20.20.2-1nodesource1 \
      chromium-headless-shell=156.0.8078.79-1~deb12u1 \
      ffmpeg=7:5.1.9-0+deb12u1 \
      fonts-dejavu-core=2.37-6 \
      fonts-liberation2=2.1.5-1 \
      fonts-noto-color-emoji=2.042-0+deb12u1; \
    rm -rf /var/lib/apt/lists/*; \
    mkdir -p -m 1777 /compose/home; \
    mkdir -p /compose/project /compose/variables

# Time zone and locale are inputs of a page too (Intl, toLocaleString).
ENV TZ=UTC \
    LANG=C.UTF-8

# The project, built here: dependencies from the lock file first (cached while only sources change).
WORKDIR /usr/local/lib/compose
COPY package.json package-lock.json ./
COPY packages/core/package.json packages/core/
COPY packages/runtime/package.json packages/runtime/
COPY packages/renderer/package.json packages/renderer/
COPY packages/producer/package.json packages/producer/
COPY packages/cli/package.json packages/cli/
COPY packages/cli/bin packages/cli/bin
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.base.json ./
COPY packages packages
RUN set -eu; \
    npm run --silent build; \
    ln -s /usr/local/lib/compose/packages/cli/bin/compose.js /usr/local/bin/compose; \
    compose --version; \
    rm -rf /root/.npm /tmp/*

# Set only now, so that nothing the build ran as root left files in it: the render's user writes
# its caches (media frames, fontconfig) and the browser's profile there.
ENV HOME=/compose/home

LABEL org.opencontainers.image.title="compose-render" \
      org.opencontainers.image.description="compose render in a pinned Debian, browser, ffmpeg and fonts: identical frames wherever it runs"

WORKDIR /compose/home
ENTRYPOINT ["compose"]
CMD ["--help"]
