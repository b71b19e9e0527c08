#!/usr/bin/env bash
# What a sandbox costs a Codex chat (docs/performance.md, "Sandboxed
# sessions"): a fresh agentdesk on loopback runs the real, pinned Codex CLI
# (node_modules/.bin/codex) against the fake Responses API
# (internal/testkit/fakeopenai) with a temporary HOME and CODEX_HOME, and
# agentdesk-load measures, for each sandbox level, a Codex chat's first
# turn (the CLI starts, answers initialize, opens its thread, runs the
# turn) and its second turn (the same CLI). Needs bwrap and socat.
#   scripts/bench-sandbox-codex.sh      # 5 sessions a level
#   REPEAT=9 scripts/bench-sandbox-codex.sh
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
go build -o "$tmp/fakeopenai" ./internal/testkit/fakeopenai/cmd/fakeopenai
go build -o "$tmp/agentdesk-load" ./cmd/agentdesk-load

# The fake API serves until its stdin ends: a fifo held open by this script.
mkfifo "$tmp/api-in"
"$tmp/fakeopenai" <"$tmp/api-in" >"$tmp/api-out" 2>"$tmp/api-log" &
api_pid=$!
exec 3>"$tmp/api-in"
api=
for _ in $(seq 100); do
  api=$(head -n1 "$tmp/api-out" 2>/dev/null || true)
  [[ -n $api ]] && break
  sleep 0.1
done
[[ -n $api ]] || { echo "fakeopenai printed no URL" >&2; exit 1; }

mkdir -p "$tmp/home/.codex" "$tmp/bin"
printf 'model_provider = "fake"\nmodel = "gpt-fake"\n\n[model_providers.fake]\nname = "Fake"\nbase_url = "%s/v1"\nenv_key = "FAKE_OPENAI_KEY"\nwire_api = "responses"\n' \
  "$api" >"$tmp/home/.codex/config.toml"
# Outside a box Codex runs its own sandbox, whose helper it cannot link
# under /tmp (agents.md §C).
ln -s "$root/node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex" "$tmp/bin/codex-linux-sandbox"
env -i PATH="$tmp/bin:$PATH" HOME="$tmp/home" CODEX_HOME="$tmp/home/.codex" FAKE_OPENAI_KEY=sk-fake \
  NO_PROXY=127.0.0.1,localhost \
  "$tmp/agentdesk" --addr 127.0.0.1:0 --data-dir "$tmp/data" --codex "$root/node_modules/.bin/codex" \
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
echo "# $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg), $("$root/node_modules/.bin/codex" --version 2>/dev/null | head -n1), $(bwrap --version)"
for level in off workspace workspace+net; do
  "$tmp/agentdesk-load" --url "$url" --pid "$pid" --agent codex --scenario turn --sandbox "$level" --repeat "${REPEAT:-5}"
done
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"
