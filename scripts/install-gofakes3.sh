#!/usr/bin/env bash
# Installs gofakes3 (an S3-compatible server in Go) when it is missing; the tests of the S3 documents
# store run it on a free port. Usage: scripts/install-gofakes3.sh   (prints the path of the binary)
set -euo pipefail
# v1.2.0 is what the tests were written against; GOFAKES3_VERSION pins another.
VERSION=${GOFAKES3_VERSION:-v1.2.0}

find_bin() {
  for c in "${GOFAKES3_PATH:-}" "$(command -v gofakes3 2>/dev/null || true)" "${GOBIN:-}/gofakes3" "$(go env GOPATH 2>/dev/null || echo "$HOME/go")/bin/gofakes3" "$HOME/go/bin/gofakes3"; do
    if [ -n "$c" ] && [ -x "$c" ]; then echo "$c"; return 0; fi
  done
  return 1
}

if bin=$(find_bin); then echo "$bin"; exit 0; fi

if command -v go >/dev/null 2>&1; then
  echo "gofakes3 not found; building it with go install (under a minute the first time)..." >&2
  go install "github.com/johannesboyne/gofakes3/cmd/gofakes3@${VERSION}" >&2
  if bin=$(find_bin); then echo "$bin"; exit 0; fi
  echo "go install finished but the gofakes3 binary was not found in $(go env GOPATH)/bin" >&2
  exit 1
fi

cat >&2 <<'MSG'
gofakes3 is missing and Go is not available to build it. Install Go, then:
  go install github.com/johannesboyne/gofakes3/cmd/gofakes3@v1.2.0
or set GOFAKES3_PATH to the binary.
MSG
exit 1
