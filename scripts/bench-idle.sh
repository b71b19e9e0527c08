#!/usr/bin/env bash
# Idle cost of many sessions, and a restart with them: builds agentdesk and
# the load tool, starts agentdesk on loopback with a fresh data dir, creates
# $SESSIONS sessions with one idle sdk worker each (no CLI runs: it starts
# on the first message), reads the server's RSS, stops it (SIGTERM), starts
# it again on the same data dir and reports the time to its URL and to the
# first /api/health answer, and its RSS once idle. The CLI is the fake one
# (internal/testkit/fakeclaude), and none may run.
#   SESSIONS=10000 scripts/bench-idle.sh
set -euo pipefail
sessions=${SESSIONS:-10000}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
pid=
stop() {
  if [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid"
    wait "$pid" || true
  fi
  pid=
}
trap 'stop; rm -rf "$tmp"' EXIT
cd "$root"
go build -o "$tmp/agentdesk" .
go build -o "$tmp/agentdesk-load" ./cmd/agentdesk-load
go build -o "$tmp/fakeclaude" ./internal/testkit/fakeclaude
mkdir -p "$tmp/home"
rss() { awk '/^VmRSS/ {printf "%.1fMiB", $2/1024}' "/proc/$pid/status"; }
# start launches agentdesk and sets url once it printed it.
start() {
  : >"$tmp/out"
  HOME=$tmp/home "$tmp/agentdesk" --addr 127.0.0.1:0 --data-dir "$tmp/data" \
    --claude "$tmp/fakeclaude" >"$tmp/out" 2>>"$tmp/log" &
  pid=$!
  url=
  for _ in $(seq 3000); do
    url=$(grep -o 'http://[^ ]*' "$tmp/out" || true)
    [[ -n $url ]] && return
    kill -0 "$pid" || { cat "$tmp/log" >&2; exit 1; }
    sleep 0.01
  done
  echo "agentdesk printed no URL" >&2
  exit 1
}
echo "# $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), sessions=$sessions"
start
"$tmp/agentdesk-load" --url "$url" --pid "$pid" --scenario sessions --sessions "$sessions" \
  --terminals 0 --parallel 4 --keep
echo "child processes of agentdesk: $(pgrep -c -P "$pid" || true) (the CLI starts on the first message)"
t0=$(date +%s%N)
stop
echo "stop: $(( ($(date +%s%N) - t0) / 1000000 ))ms"
t0=$(date +%s%N)
start
t1=$(date +%s%N)
base=${url%%/\?*}
until curl -fsS -o /dev/null "$base/api/health"; do sleep 0.01; done
t2=$(date +%s%N)
echo "restart: url after $(( (t1 - t0) / 1000000 ))ms, health after $(( (t2 - t0) / 1000000 ))ms, rss $(rss)"
sleep 5
echo "restarted, idle 5s: rss $(rss)"
