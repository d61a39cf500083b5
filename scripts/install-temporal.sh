#!/usr/bin/env bash
# Installs the Temporal CLI (dev server + Web UI) when it is missing.
# Usage: scripts/install-temporal.sh   (prints the path of the CLI on success)
set -euo pipefail
VERSION=v1.5.1   # this tag has no replace directives, so `go install` works; later tags do not

find_cli() {
  for c in "${TEMPORAL_CLI_PATH:-}" "$(command -v temporal 2>/dev/null || true)" "${GOBIN:-}/temporal" "$(go env GOPATH 2>/dev/null || echo "$HOME/go")/bin/temporal" /usr/local/bin/temporal; do
    if [ -n "$c" ] && [ -x "$c" ]; then echo "$c"; return 0; fi
  done
  return 1
}

if [ -n "${TEMPORAL_ADDRESS:-}" ] && [ "${1:-}" = "--if-needed" ]; then exit 0; fi
if cli=$(find_cli); then echo "$cli"; exit 0; fi

if command -v go >/dev/null 2>&1; then
  echo "Temporal CLI not found; building it with go install (several minutes the first time)..." >&2
  go install "github.com/temporalio/cli/cmd/temporal@${VERSION}" >&2
  if cli=$(find_cli); then echo "$cli"; exit 0; fi
  echo "go install finished but the temporal binary was not found in $(go env GOPATH)/bin" >&2
  exit 1
fi

cat >&2 <<'MSG'
The Temporal CLI is missing and Go is not available to build it. Install it one of these ways:
  - macOS:  brew install temporal
  - Linux/macOS:  curl -sSf https://temporal.download/cli.sh | sh
  - Download a release: https://github.com/temporalio/cli/releases
  - With Go:  go install github.com/temporalio/cli/cmd/temporal@v1.5.1
Or point TEMPORAL_ADDRESS at an existing Temporal server.
MSG
exit 1
