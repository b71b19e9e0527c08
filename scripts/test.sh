#!/usr/bin/env bash
# Runs every test of agentdesk: formatting and vet, the frontend type check
# and build, the Go tests with the race detector (real bbolt files, PTYs,
# git repositories, WebSockets and the pinned claude CLI against a fake
# Messages API), then the browser end-to-end tests in Debian's chromium.
#
# Both suites always run, whatever the other one did, and the summary at
# the end reports each; the exit status is non-zero when any step failed.
set -uo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n==> %s\n' "$*"; }
declare -a summary=()
failed=0
record() { # record NAME STATUS
  if [ "$2" -eq 0 ]; then summary+=("ok      $1"); else summary+=("FAILED  $1 (exit $2)"); failed=1; fi
}

if [ ! -x node_modules/.bin/vite ]; then
  step "npm ci"
  npm ci || { echo "npm ci failed: nothing can be tested"; exit 1; }
fi

step "frontend: type check and build"
npm run build
built=$?
record "frontend type check and build" $built
if [ $built -eq 0 ]; then
  bash scripts/bench-bundle.sh | tail -2
fi

step "gofmt and go vet"
unformatted=$(gofmt -l $(git ls-files '*.go') 2>/dev/null || true)
if [ -n "$unformatted" ]; then
  echo "gofmt would change:"; echo "$unformatted"
  record "gofmt" 1
else
  record "gofmt" 0
fi
go vet ./...
record "go vet" $?

step "go test -race"
go test -race -count=1 -timeout 30m ./...
record "Go tests (go test -race ./...)" $?

step "browser end-to-end tests"
bin=$(mktemp -d)/agentdesk
if go build -o "$bin" .; then
  AGENTDESK_BIN="$bin" node --test --test-concurrency=1 e2e/
  record "browser tests (node --test e2e/)" $?
else
  record "browser tests (the binary did not build)" 1
fi

step "summary"
printf '%s\n' "${summary[@]}"
exit $failed
