#!/usr/bin/env bash
# Runs one agentdesk-load scenario against a fresh agentdesk on loopback:
# builds agentdesk, the fake CLI and the load tool into a temp dir, starts
# agentdesk there (fake CLI, FAKECLAUDE_FLOOD=$FLOOD, paced at $FLOOD_RATE
# lines a second when set), runs the tool with the server's pid, and stops
# the server. Extra arguments go to the tool.
#   scripts/bench-load.sh sdk-fanout --tabs 1,10,100
#   FLOOD_RATE=20000 scripts/bench-load.sh sdk-fanout --tabs 1,10  # latency
#   FLOOD=20000 scripts/bench-load.sh catchup --messages 1000,10000,100000
#   BIG=12x30000000 scripts/bench-load.sh big --tabs 1   # BIG_KIND=tool|text|mixed
#   scripts/bench-load.sh upload --parallel 4             # 30 MiB of attachments each
#   scripts/bench-load.sh adopt --adopt-lines 4 --adopt-bytes 30000000
#   AGENT=codex FLOOD=2000 scripts/bench-load.sh sdk-fanout --tabs 1,10
# With AGENT=codex the chat is a Codex chat: the real, pinned Codex CLI
# (node_modules/.bin/codex) against the fake Responses API
# (internal/testkit/fakeopenai, FAKEOPENAI_FLOOD=$FLOOD), in a temp CODEX_HOME.
set -euo pipefail
scenario=${1:?usage: bench-load.sh SCENARIO [tool flags]}
shift
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
pid=
api=
cleanup() {
  if [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid"
    wait "$pid" || true
  fi
  if [[ -n $api ]]; then
    exec 3>&-   # the fake API ends at the end of its stdin
    wait "$api" || true
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT
cd "$root"
go build -o "$tmp/agentdesk" .
go build -o "$tmp/fakeclaude" ./internal/testkit/fakeclaude
go build -o "$tmp/agentdesk-load" ./cmd/agentdesk-load
mkdir -p "$tmp/home"
agent_flags=()
extra_env=()
if [[ ${AGENT:-sdk} == codex ]]; then
  go build -o "$tmp/fakeopenai" ./internal/testkit/fakeopenai/cmd/fakeopenai
  mkfifo "$tmp/api-in"
  FAKEOPENAI_FLOOD=${FLOOD:-2000} "$tmp/fakeopenai" <"$tmp/api-in" >"$tmp/api-out" 2>"$tmp/api-log" &
  api=$!
  exec 3>"$tmp/api-in"
  for _ in $(seq 100); do [[ -s $tmp/api-out ]] && break; sleep 0.1; done
  api_url=$(head -1 "$tmp/api-out")
  mkdir -p "$tmp/home/.codex" "$tmp/bin"
  printf 'model_provider = "fake"\nmodel = "gpt-fake"\n\n[model_providers.fake]\nname = "Fake"\nbase_url = "%s/v1"\nenv_key = "FAKE_OPENAI_KEY"\nwire_api = "responses"\n' \
    "$api_url" >"$tmp/home/.codex/config.toml"
  ln -s "$root/node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex" "$tmp/bin/codex-linux-sandbox"
  extra_env=(PATH="$tmp/bin:$PATH" CODEX_HOME="$tmp/home/.codex" FAKE_OPENAI_KEY=sk-fake
    HTTPS_PROXY="$api_url" HTTP_PROXY="$api_url" NO_PROXY=127.0.0.1,localhost)
  agent_flags=(--codex "$root/node_modules/.bin/codex")
  set -- --agent codex "$@"
fi
env "${extra_env[@]}" HOME=$tmp/home FAKECLAUDE_FLOOD=${FLOOD:-20000} FAKECLAUDE_FLOOD_RATE=${FLOOD_RATE:-} \
  FAKECLAUDE_BIG=${BIG:-} FAKECLAUDE_BIG_KIND=${BIG_KIND:-} "$tmp/agentdesk" --addr 127.0.0.1:0 \
  --data-dir "$tmp/data" --claude "$tmp/fakeclaude" "${agent_flags[@]}" >"$tmp/out" 2>"$tmp/log" &
pid=$!
url=
for _ in $(seq 100); do
  url=$(grep -o 'http://[^ ]*' "$tmp/out" || true)
  [[ -n $url ]] && break
  kill -0 "$pid" || { cat "$tmp/log"; exit 1; }
  sleep 0.1
done
[[ -n $url ]] || { echo "agentdesk printed no URL" >&2; cat "$tmp/log" >&2; exit 1; }
echo "# $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg), agent ${AGENT:-sdk}, FLOOD=${FLOOD:-default} FAKECLAUDE_FLOOD_RATE=${FLOOD_RATE:-unpaced}${BIG:+ FAKECLAUDE_BIG=$BIG ${BIG_KIND:-mixed}}"
extra=()
[[ $scenario == adopt ]] && extra=(--claude-config "$tmp/home/.claude")
"$tmp/agentdesk-load" --url "$url" --pid "$pid" --scenario "$scenario" "${extra[@]}" "$@"
