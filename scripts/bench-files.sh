#!/usr/bin/env bash
# Measures the Files tab's archive download on the real binary: a folder
# of 1 GiB streamed as zip and as tar.gz to curl, with the server's RSS
# sampled every 100 ms (and its VmHWM, the kernel's peak), against its RSS
# when idle; then a slow client (10 MB/s for 10 s) to show that the
# archive waits for the reader instead of piling up in memory.
#
# The 1 GiB is 256 files of 4 MiB: 16 distinct files of pseudo-random
# bytes (/dev/urandom), each hard-linked 16 times. Random bytes do not
# compress, so deflate does its slowest work and the archive is as big as
# the folder; the links only save disk space (every file is read in full).
#
#   scripts/bench-files.sh            # builds ./agentdesk unless AGENTDESK_BIN is set
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${AGENTDESK_BIN:-}
tmp=$(mktemp -d /tmp/agentdesk-bench-files-XXXXXX)
pid=
cleanup() {
  [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT
if [ -z "$bin" ]; then
  (cd "$root" && go build -o "$tmp/agentdesk" .)
  bin=$tmp/agentdesk
fi

echo "making 1 GiB of files in $tmp/tree …"
mkdir -p "$tmp/blobs" "$tmp/tree"
for i in $(seq -w 0 15); do head -c $((4 << 20)) /dev/urandom >"$tmp/blobs/b$i"; done
for d in $(seq -w 0 15); do
  mkdir "$tmp/tree/d$d"
  for i in $(seq -w 0 15); do ln "$tmp/blobs/b$i" "$tmp/tree/d$d/f$i.bin"; done
done

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
token=$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')
url=http://127.0.0.1:$port
HOME=$tmp "$bin" --addr "127.0.0.1:$port" --data-dir "$tmp/data" --token "$token" >"$tmp/server.log" 2>&1 &
pid=$!
for _ in $(seq 100); do curl -sf "$url/api/health" >/dev/null && break; sleep 0.1; done
auth=(-H "Authorization: Bearer $token")
sid=$(curl -sf "${auth[@]}" -H 'Content-Type: application/json' -d "{\"cwd\":\"$tmp/tree\",\"agent\":\"none\"}" "$url/api/sessions" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')

rss() { awk '/^VmRSS/ {print $2}' "/proc/$pid/status"; }
hwm() { awk '/^VmHWM/ {print $2}' "/proc/$pid/status"; }
sleep 2
idle=$(rss)
echo "server pid $pid, idle RSS $((idle / 1024)) MiB ($idle kB)"

start=$(date +%s.%N)
size=$(curl -sf "${auth[@]}" "$url/api/sessions/$sid/fs/archive?path=.&format=zip&size=1")
echo "size first: $size ($(echo "$(date +%s.%N) - $start" | bc) s)"

# run NAME CURL-ARGS…: one download while RSS is sampled; prints the figures.
run() {
  local name=$1
  shift
  local peak=0 out=$tmp/curl.out
  curl -s "${auth[@]}" -o /dev/null -w '%{size_download} %{time_total}\n' "$@" >"$out" &
  local cpid=$!
  while kill -0 "$cpid" 2>/dev/null; do
    local r
    r=$(rss)
    ((r > peak)) && peak=$r
    sleep 0.1
  done
  wait "$cpid" || true
  read -r bytes secs <"$out"
  printf '%-28s %6.0f MiB in %6.1f s = %6.1f MB/s; RSS peak %4d MiB (idle + %d MiB), VmHWM %d MiB\n' \
    "$name" "$(echo "$bytes / 1048576" | bc -l)" "$secs" "$(echo "$bytes / $secs / 1000000" | bc -l)" \
    $((peak / 1024)) $(((peak - idle) / 1024)) $(($(hwm) / 1024))
}
run "zip, 1 GiB" "$url/api/sessions/$sid/fs/archive?path=.&format=zip"
run "tar.gz, 1 GiB" "$url/api/sessions/$sid/fs/archive?path=.&format=tar.gz"
run "zip, slow client (10 MB/s)" --limit-rate 10M --max-time 10 "$url/api/sessions/$sid/fs/archive?path=.&format=zip"
