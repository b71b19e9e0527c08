#!/usr/bin/env bash
# What a sandbox costs (docs/performance.md, "Sandboxed sessions"): a fresh
# agentdesk on loopback runs the real claude CLI (node_modules/.bin/claude)
# against the fake Messages API, and agentdesk-load measures, for each
# sandbox level, a chat's first turn (the CLI starts, answers initialize,
# runs the turn) and its second turn (the same CLI), then the terminal's
# throughput outside and inside a box. Needs bwrap and socat.
#   scripts/bench-sandbox.sh            # 5 sessions a level, 100 MB through the terminal
#   REPEAT=9 PTY_BYTES=50000000 scripts/bench-sandbox.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
pid=
api_pid=
cleanup() {
  for p in $pid $api_pid; do
    if kill -0 "$p" 2>/dev/null; then
      kill -TERM "$p"
      wait "$p" || true
    fi
  done
  rm -rf "$tmp"
}
trap cleanup EXIT
cd "$root"
go build -o "$tmp/agentdesk" .
go build -o "$tmp/fakeapi" ./internal/testkit/fakeapi/cmd/fakeapi
go build -o "$tmp/agentdesk-load" ./cmd/agentdesk-load

# The fake API serves until its stdin ends: a fifo held open by this script.
mkfifo "$tmp/api-in"
"$tmp/fakeapi" <"$tmp/api-in" >"$tmp/api-out" 2>"$tmp/api-log" &
api_pid=$!
exec 3>"$tmp/api-in"
api=
for _ in $(seq 100); do
  api=$(head -n1 "$tmp/api-out" 2>/dev/null || true)
  [[ -n $api ]] && break
  sleep 0.1
done
[[ -n $api ]] || { echo "fakeapi printed no URL" >&2; exit 1; }

mkdir -p "$tmp/home"
env -i PATH="$PATH" HOME="$tmp/home" CLAUDE_CONFIG_DIR="$tmp/home/.claude" \
  ANTHROPIC_BASE_URL="$api" ANTHROPIC_API_KEY=sk-fake CLAUDE_CODE_MAX_RETRIES=1 \
  NO_PROXY=127.0.0.1,localhost DISABLE_TELEMETRY=1 DISABLE_ERROR_REPORTING=1 DISABLE_AUTOUPDATER=1 \
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL=1 \
  "$tmp/agentdesk" --addr 127.0.0.1:0 --data-dir "$tmp/data" --claude "$root/node_modules/.bin/claude" \
  >"$tmp/out" 2>"$tmp/log" &
pid=$!
url=
for _ in $(seq 100); do
  url=$(grep -o 'http://[^ ]*' "$tmp/out" || true)
  [[ -n $url ]] && break
  kill -0 "$pid" || { cat "$tmp/log"; exit 1; }
  sleep 0.1
done
[[ -n $url ]] || { echo "agentdesk printed no URL" >&2; cat "$tmp/log" >&2; exit 1; }
echo "# $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg), claude $("$root/node_modules/.bin/claude" --version 2>/dev/null | head -n1), $(bwrap --version)"
load=("$tmp/agentdesk-load" --url "$url" --pid "$pid")
for level in off workspace workspace+net; do
  "${load[@]}" --scenario turn --sandbox "$level" --repeat "${REPEAT:-5}"
done
for level in off workspace; do
  echo "# terminal, sandbox=$level"
  "${load[@]}" --scenario pty --tabs 1 --pty-bytes "${PTY_BYTES:-100000000}" --sandbox "$level"
done
