#!/usr/bin/env bash
# What a sandbox costs (docs/performance.md, "Sandboxed sessions"): a fresh
# agentdesk on loopback runs a real, pinned agent CLI against the project's
# fake API with a temporary HOME, and agentdesk-load measures, for each
# sandbox level, a chat's first turn (the CLI starts, answers initialize,
# runs the turn) and its second turn (the same CLI). With the claude CLI
# (the default: node_modules/.bin/claude, the fake Messages API) it then
# measures the terminal's throughput outside and inside a box; with
# AGENT=codex it runs Codex (node_modules/.bin/codex, the fake Responses
# API, a temporary CODEX_HOME). Needs bwrap and socat.
#   scripts/bench-sandbox.sh            # 5 sessions a level, 100 MB through the terminal
#   REPEAT=9 PTY_BYTES=50000000 scripts/bench-sandbox.sh
#   AGENT=codex REPEAT=9 scripts/bench-sandbox.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
agent=${AGENT:-claude}
case $agent in
  claude) fake=fakeapi ;;
  codex) fake=fakeopenai ;;
  *) echo "AGENT=$agent: want claude or codex" >&2; exit 2 ;;
esac
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
go build -o "$tmp/$fake" "./internal/testkit/$fake/cmd/$fake"
go build -o "$tmp/agentdesk-load" ./cmd/agentdesk-load

# The fake API serves until its stdin ends: a fifo held open by this script.
mkfifo "$tmp/api-in"
"$tmp/$fake" <"$tmp/api-in" >"$tmp/api-out" 2>"$tmp/api-log" &
api_pid=$!
exec 3>"$tmp/api-in"
api=
for _ in $(seq 100); do
  api=$(head -n1 "$tmp/api-out" 2>/dev/null || true)
  [[ -n $api ]] && break
  sleep 0.1
done
[[ -n $api ]] || { echo "$fake printed no URL" >&2; exit 1; }

mkdir -p "$tmp/home"
if [[ $agent == codex ]]; then
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
else
  env -i PATH="$PATH" HOME="$tmp/home" CLAUDE_CONFIG_DIR="$tmp/home/.claude" \
    ANTHROPIC_BASE_URL="$api" ANTHROPIC_API_KEY=sk-fake CLAUDE_CODE_MAX_RETRIES=1 \
    NO_PROXY=127.0.0.1,localhost DISABLE_TELEMETRY=1 DISABLE_ERROR_REPORTING=1 DISABLE_AUTOUPDATER=1 \
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL=1 \
    "$tmp/agentdesk" --addr 127.0.0.1:0 --data-dir "$tmp/data" --claude "$root/node_modules/.bin/claude" \
    >"$tmp/out" 2>"$tmp/log" &
fi
pid=$!
url=
for _ in $(seq 100); do
  url=$(grep -o 'http://[^ ]*' "$tmp/out" || true)
  [[ -n $url ]] && break
  kill -0 "$pid" || { cat "$tmp/log"; exit 1; }
  sleep 0.1
done
[[ -n $url ]] || { echo "agentdesk printed no URL" >&2; cat "$tmp/log" >&2; exit 1; }
echo "# $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg), $agent $("$root/node_modules/.bin/$agent" --version 2>/dev/null | head -n1), $(bwrap --version)"
load=("$tmp/agentdesk-load" --url "$url" --pid "$pid")
[[ $agent == codex ]] && load+=(--agent codex)
for level in off workspace workspace+net; do
  echo "# $agent chat, sandbox=$level"
  "${load[@]}" --scenario turn --sandbox "$level" --repeat "${REPEAT:-5}"
done
if [[ $agent == claude ]]; then
  for level in off workspace; do
    echo "# terminal, sandbox=$level"
    "${load[@]}" --scenario pty --tabs 1 --pty-bytes "${PTY_BYTES:-100000000}" --sandbox "$level"
  done
fi
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"
