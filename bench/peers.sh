#!/usr/bin/env bash
# agentdesk's terminal side by side with gotty and agent-console, in the
# same runs, with the same client (agentdesk-load --scenario term). Builds
# agentdesk and the load tool from this tree, starts the three servers on
# 127.0.0.1 with the same HOME (empty) and SHELL=/bin/bash, waits 3 s and
# lets the tool read their idle RSS, then runs ROUNDS interleaved rounds:
# in each, every server (and the raw PTY, read by the tool itself) runs
# `bash -l` at 120x30 and prints PTY_BYTES of 'x' folded to 80 columns to
# one tab, then to TABS tabs of one terminal (agentdesk and agent-console;
# gotty starts a shell per connection), then echoes keystrokes.
# Fetches nothing: the peers are built by bench/peers-build.sh (see
# bench/README.md).
#
#   PEERS=/tmp/agentdesk-peers bench/peers.sh            # ROUNDS=5 TABS=10 PTY_BYTES=100000000 ECHO_KEYS=1000 DURATION=90m
#   ONLY=agentdesk bench/peers.sh                        # agentdesk and raw only
#   BASE=/tmp/agentdesk-main bench/peers.sh              # plus another agentdesk build (agentdesk-base)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
peers=${PEERS:-/tmp/agentdesk-peers}
tmp=$(mktemp -d /tmp/agentdesk-peers-run-XXXXXX)
pids=()
cleanup() {
  for p in "${pids[@]}"; do
    kill -TERM "$p" 2>/dev/null && wait "$p" 2>/dev/null || true
  done
  rm -rf "$tmp"
}
trap cleanup EXIT
cd "$root"
go build -o "$tmp/agentdesk" .
go build -o "$tmp/agentdesk-load" ./cmd/agentdesk-load
mkdir -p "$tmp/home" "$tmp/ac-home"
export HOME=$tmp/home SHELL=/bin/bash
port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
up() { for _ in $(seq 200); do curl -fs -o /dev/null "$1" && return; sleep 0.05; done; echo "no answer from $1" >&2; exit 1; }

# start_agentdesk BIN NAME: starts BIN on 127.0.0.1:0 with its own data
# dir, sets ad_url and ad_pid.
start_agentdesk() {
  "$1" --addr 127.0.0.1:0 --data-dir "$tmp/$2-data" >"$tmp/$2.out" 2>"$tmp/$2.log" &
  ad_pid=$!
  pids+=("$ad_pid")
  ad_url=
  for _ in $(seq 200); do
    ad_url=$(grep -o 'http://[^ ]*' "$tmp/$2.out" || true)
    [[ -n $ad_url ]] && return
    sleep 0.05
  done
  cat "$tmp/$2.log" >&2
  exit 1
}
start_agentdesk "$tmp/agentdesk" ad
args=(--url "$ad_url" --pid "$ad_pid")
if [[ -n ${BASE:-} ]]; then
  start_agentdesk "$BASE" base
  args+=(--base-url "$ad_url" --base-pid "$ad_pid")
fi

if [[ ${ONLY:-} != agentdesk ]]; then
  gp=$(port)
  "$peers/gotty" --address 127.0.0.1 --port "$gp" -w --width 120 --height 30 bash -l >"$tmp/gotty.log" 2>&1 &
  pids+=("$!")
  args+=(--gotty "127.0.0.1:$gp" --gotty-pid "$!")
  up "http://127.0.0.1:$gp/"

  ap=$(port)
  (cd "$peers/agent-console" && PORT=$ap HOST=127.0.0.1 AGENT_CONSOLE_HOME=$tmp/ac-home NODE_ENV=production \
    exec "$peers/bun/node_modules/.bin/bun" dist/index.js >"$tmp/ac.log" 2>&1) &
  pids+=("$!")
  args+=(--agent-console "127.0.0.1:$ap" --agent-console-pid "$!")
  up "http://127.0.0.1:$ap/api/sessions"
fi
sleep 3
echo "# $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%FT%TZ)"
"$tmp/agentdesk-load" "${args[@]}" --scenario term --rounds "${ROUNDS:-5}" --term-tabs "${TABS:-10}" \
  --pty-bytes "${PTY_BYTES:-100000000}" --echo-keys "${ECHO_KEYS:-1000}" --duration "${DURATION:-90m}"
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"
