#!/usr/bin/env bash
# Installs gofakes3 (an S3-compatible server in Go) when it is missing; the tests of the S3 documents
# store run it on a free port. Usage: scripts/install-gofakes3.sh   (prints the path of the binary)
set -euo pipefail
source "$(dirname "$0")/lib/go-tool.sh"
# v1.2.0 is what the tests were written against; GOFAKES3_VERSION pins another.
install_go_tool gofakes3 GOFAKES3_PATH github.com/johannesboyne/gofakes3/cmd/gofakes3 "${GOFAKES3_VERSION:-v1.2.0}" "under a minute the first time" \
"gofakes3 is missing and Go is not available to build it. Install Go, then:
  go install github.com/johannesboyne/gofakes3/cmd/gofakes3@v1.2.0
or set GOFAKES3_PATH to the binary."
