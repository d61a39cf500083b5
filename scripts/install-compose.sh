#!/usr/bin/env bash
# Makes `docker compose` available (the client only; no engine is needed to check the compose file).
# Builds the Compose v2 CLI plugin from the Go module proxy when it is missing.
set -euo pipefail
VERSION=v2.29.7
if docker compose version >/dev/null 2>&1; then exit 0; fi
if ! command -v docker >/dev/null 2>&1; then echo "docker client not installed; skipping compose" >&2; exit 0; fi
if ! command -v go >/dev/null 2>&1; then echo "docker compose missing and Go unavailable to build it" >&2; exit 1; fi
tmp=$(mktemp -d)
echo "building docker compose ${VERSION} (a few minutes the first time)..." >&2
GOBIN="$tmp" go install "github.com/docker/compose/v2/cmd@${VERSION}" >&2
mkdir -p "$HOME/.docker/cli-plugins"
mv "$tmp/cmd" "$HOME/.docker/cli-plugins/docker-compose"
chmod +x "$HOME/.docker/cli-plugins/docker-compose"
rm -rf "$tmp"
docker compose version >&2
