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
#   INDEX_LAG=1 FLOOD_RATE=20000 scripts/bench-load.sh sdk-fanout --tabs 10
# With INDEX_LAG=1 the script also asks GET /api/search every 100 ms while
# the tool runs and after it, until the answer has no "behind" (the search
# index holds every stored message), and prints the largest lag seen, how
# long after the tool's end the index caught up, and the indexing rate over
# the whole run (messages stored / time until caught up); sdk-fanout then
# keeps its sessions (--keep), or their deletion would empty the lag.
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
lag_poll() { # prints "<unix ms> <behind>" every 100 ms until killed
  local base=${url%%\?*} token=${url##*token=}
  base=${base%/}
  while :; do
    local b
    b=$(curl -s -H "Authorization: Bearer $token" "$base/api/search?q=zzzlagprobe&limit=1" | grep -o '"behind":[0-9]*' | cut -d: -f2 || true)
    echo "$(date +%s%3N) ${b:-0}"
    sleep 0.1
  done
}
if [[ -n ${INDEX_LAG:-} ]]; then
  [[ $scenario == sdk-fanout ]] && set -- --keep "$@" # the stored messages stay for the index to catch up
  lag_poll >"$tmp/lag" &
  poller=$!
  start_ms=$(date +%s%3N)
fi
"$tmp/agentdesk-load" --url "$url" --pid "$pid" --scenario "$scenario" "${extra[@]}" "$@" | tee "$tmp/tool"
if [[ -n ${INDEX_LAG:-} ]]; then
  end_ms=$(date +%s%3N)
  for _ in $(seq 1200); do # at most 2 minutes
    [[ $(tail -1 "$tmp/lag" | cut -d' ' -f2) == 0 && $(tail -1 "$tmp/lag" | cut -d' ' -f1) -gt $end_ms ]] && break
    sleep 0.1
  done
  kill "$poller"
  wait "$poller" 2>/dev/null || true
  caught=$(awk -v e="$end_ms" '$1 > e && $2 == 0 {print $1; exit}' "$tmp/lag")
  peak=$(awk 'BEGIN{m=0} $2 > m {m=$2} END{print m}' "$tmp/lag")
  # each run is one turn: its assistant messages (the tool's msgs/tab) plus the user message and the result
  stored=$(grep -o 'msgs/tab=[0-9]*\.\.[0-9]*' "$tmp/tool" | awk -F'[.]+' '{s += $2 + 2} END {print s + 0}')
  echo "index lag: peak behind=$peak messages; caught up $(( ${caught:-$end_ms} - end_ms )) ms after the tool ended${caught:+ }${caught:-(not within 2 min)}; run $(( end_ms - start_ms )) ms"
  [[ -n $stored && -n $caught ]] && echo "index rate over the run: $stored stored messages / $(( caught - start_ms )) ms = $(( stored * 1000 / (caught - start_ms) )) msg/s"
fi
