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
set -euo pipefail
scenario=${1:?usage: bench-load.sh SCENARIO [tool flags]}
shift
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
pid=
cleanup() {
  if [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid"
    wait "$pid" || true
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT
cd "$root"
go build -o "$tmp/agentdesk" .
go build -o "$tmp/fakeclaude" ./internal/testkit/fakeclaude
go build -o "$tmp/agentdesk-load" ./cmd/agentdesk-load
mkdir -p "$tmp/home"
HOME=$tmp/home FAKECLAUDE_FLOOD=${FLOOD:-20000} FAKECLAUDE_FLOOD_RATE=${FLOOD_RATE:-} \
  FAKECLAUDE_BIG=${BIG:-} FAKECLAUDE_BIG_KIND=${BIG_KIND:-} "$tmp/agentdesk" --addr 127.0.0.1:0 \
  --data-dir "$tmp/data" --claude "$tmp/fakeclaude" >"$tmp/out" 2>"$tmp/log" &
pid=$!
url=
for _ in $(seq 100); do
  url=$(grep -o 'http://[^ ]*' "$tmp/out" || true)
  [[ -n $url ]] && break
  kill -0 "$pid" || { cat "$tmp/log"; exit 1; }
  sleep 0.1
done
[[ -n $url ]] || { echo "agentdesk printed no URL" >&2; cat "$tmp/log" >&2; exit 1; }
echo "# $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg), FAKECLAUDE_FLOOD=${FLOOD:-20000} FAKECLAUDE_FLOOD_RATE=${FLOOD_RATE:-unpaced}${BIG:+ FAKECLAUDE_BIG=$BIG ${BIG_KIND:-mixed}}"
extra=()
[[ $scenario == adopt ]] && extra=(--claude-config "$tmp/home/.claude")
"$tmp/agentdesk-load" --url "$url" --pid "$pid" --scenario "$scenario" "${extra[@]}" "$@"
