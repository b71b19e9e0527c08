#!/usr/bin/env bash
# Runs every test of agentdesk: formatting and vet, the frontend type check
# and build, the Go tests with the race detector (real bbolt files, PTYs,
# git repositories, WebSockets and the pinned claude CLI against a fake
# Messages API), then the browser end-to-end tests in Debian's chromium.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n==> %s\n' "$*"; }

if [ ! -x node_modules/.bin/vite ]; then
  step "npm ci"
  npm ci
fi

step "frontend: type check and build"
npm run build
gz=$(cat frontend/dist/assets/*.js | gzip -9 | wc -c)
echo "frontend JavaScript, gzipped: $gz bytes"

step "gofmt and go vet"
unformatted=$(gofmt -l $(git ls-files '*.go') 2>/dev/null || true)
if [ -n "$unformatted" ]; then
  echo "gofmt would change:"; echo "$unformatted"; exit 1
fi
go vet ./...

step "go test -race"
go test -race -count=1 -timeout 20m ./...

step "browser end-to-end tests"
bin=$(mktemp -d)/agentdesk
go build -o "$bin" .
AGENTDESK_BIN="$bin" node --test --test-concurrency=1 e2e/
