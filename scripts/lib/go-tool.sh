# Sourced by the install scripts of the Go tools the tests run (stripe-mock, gofakes3): finds the
# binary (the PATH variable named, then PATH, GOBIN, GOPATH/bin, ~/go/bin) or builds it with
# `go install`, and prints its path; without Go it prints how to get it and fails.
# Usage: install_go_tool <binary> <PATH variable> <go install package> <version> <how long to build> <help text>

install_go_tool() {
  local name=$1 path_var=$2 package=$3 version=$4 build_time=$5 help=$6 bin
  find_bin() {
    for c in "${!path_var:-}" "$(command -v "$name" 2>/dev/null || true)" "${GOBIN:-}/$name" "$(go env GOPATH 2>/dev/null || echo "$HOME/go")/bin/$name" "$HOME/go/bin/$name"; do
      if [ -n "$c" ] && [ -x "$c" ]; then echo "$c"; return 0; fi
    done
    return 1
  }
  if bin=$(find_bin); then echo "$bin"; return 0; fi
  if command -v go >/dev/null 2>&1; then
    echo "$name not found; building it with go install ($build_time)..." >&2
    go install "$package@$version" >&2
    if bin=$(find_bin); then echo "$bin"; return 0; fi
    echo "go install finished but the $name binary was not found in $(go env GOPATH)/bin" >&2
    return 1
  fi
  echo "$help" >&2
  return 1
}
