#!/usr/bin/env bash
# Installs stripe-mock (Stripe's API mock, used by the tests of the Stripe adapter) when it is missing.
# Usage: scripts/install-stripe-mock.sh   (prints the path of the binary on success)
set -euo pipefail
source "$(dirname "$0")/lib/go-tool.sh"
# v0.203.0 is what the tests were written against; STRIPE_MOCK_VERSION pins another.
install_go_tool stripe-mock STRIPE_MOCK_PATH github.com/stripe/stripe-mock "${STRIPE_MOCK_VERSION:-latest}" "about 2 minutes the first time" \
"stripe-mock is missing and Go is not available to build it. Install it one of these ways:
  - macOS:  brew install stripe/stripe-mock/stripe-mock
  - Download a release: https://github.com/stripe/stripe-mock/releases
  - With Go:  go install github.com/stripe/stripe-mock@latest
Then set STRIPE_MOCK_PATH to the binary, or STRIPE_MOCK_URL to a running stripe-mock."
