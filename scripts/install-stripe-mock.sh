#!/usr/bin/env bash
# Installs stripe-mock (Stripe's API mock, used by the tests of the Stripe adapter) when it is missing.
# Usage: scripts/install-stripe-mock.sh   (prints the path of the binary on success)
set -euo pipefail
# v0.203.0 is what the tests were written against; STRIPE_MOCK_VERSION pins another.
VERSION=${STRIPE_MOCK_VERSION:-latest}

find_bin() {
  for c in "${STRIPE_MOCK_PATH:-}" "$(command -v stripe-mock 2>/dev/null || true)" "${GOBIN:-}/stripe-mock" "$(go env GOPATH 2>/dev/null || echo "$HOME/go")/bin/stripe-mock" "$HOME/go/bin/stripe-mock"; do
    if [ -n "$c" ] && [ -x "$c" ]; then echo "$c"; return 0; fi
  done
  return 1
}

if bin=$(find_bin); then echo "$bin"; exit 0; fi

if command -v go >/dev/null 2>&1; then
  echo "stripe-mock not found; building it with go install (about 2 minutes the first time)..." >&2
  go install "github.com/stripe/stripe-mock@${VERSION}" >&2
  if bin=$(find_bin); then echo "$bin"; exit 0; fi
  echo "go install finished but the stripe-mock binary was not found in $(go env GOPATH)/bin" >&2
  exit 1
fi

cat >&2 <<'MSG'
stripe-mock is missing and Go is not available to build it. Install it one of these ways:
  - macOS:  brew install stripe/stripe-mock/stripe-mock
  - Download a release: https://github.com/stripe/stripe-mock/releases
  - With Go:  go install github.com/stripe/stripe-mock@latest
Then set STRIPE_MOCK_PATH to the binary, or STRIPE_MOCK_URL to a running stripe-mock.
MSG
exit 1
