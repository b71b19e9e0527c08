#!/usr/bin/env bash
# CI regression guard: runs a few Go benchmarks briefly and fails when one
# is more than 3x slower (ns/op) than .ci/bench-baseline.txt, or when a
# benchmark named in the baseline did not run. Figures on a shared 2-core
# machine are noisy; 3x only catches real regressions, and a benchmark over
# the limit runs twice more and keeps its best figure, so a burst of other
# load does not fail it.
#   scripts/bench-check.sh            # compare
#   scripts/bench-check.sh --update   # measure and rewrite the baseline
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
baseline=$root/.ci/bench-baseline.txt
factor=${BENCH_FACTOR:-3}
# package | -bench regexp | -benchtime [| arguments for the test binary [| VAR=value for it]]
suite=(
  "./persist|^BenchmarkAppendMessages\$/nosync=true|20000x"
  "./persist|^BenchmarkMessagesAfter10k\$|5x"
  "./worker/chat|^BenchmarkPipeline\$/saturated|20000x"
  "./worker/chat|^BenchmarkCatchUp10k\$|5x"
  "./internal/hub|^BenchmarkPublish10\$|200ms"
  "./server|^BenchmarkPumpFanout10\$|20000x"
  "./internal/markdown|^BenchmarkRender\$|200ms"
  "./internal/agent/claude|^BenchmarkParseLine\$|200ms"
  "./worker/gitdiff|^BenchmarkCompute1000Files\$|3x"
  "./internal/filelist|^BenchmarkRank100k\$|20x"
  # the terminal's path: 20 MB from a PTY child through Log (stored in
  # bbolt) and hub to a subscriber; each iteration also reads the same
  # output raw. (What the store writes per output byte and the reads per
  # line are counted by tests, TestStreamingOutputWrittenOnce and
  # TestReaderReadsEmptyOnlyToWait, which need no timing.)
  "./internal/pty|^BenchmarkPTYThroughput\$/^subs=1\$|2x|-ptybytes=20000000"
  # Issue 28: opening a long chat (its newest page, then one older) must not grow with its length,
  "./worker/chat|^BenchmarkNewestPage20k\$|20x"
  # the history import of an adopted conversation (5 MB, 2,009 messages: scan, markdown, commit, publish),
  "./worker/chat|^BenchmarkImport5MB\$|3x"
  # and the search's query mix over 20,000 indexed messages.
  "./internal/search|^BenchmarkSearchScale\$|3x||AGENTDESK_SEARCH_N=20000"
)
cd "$root"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
# measure PKG RE BT [ARGS [ENV]]: one run, as "pkg BenchmarkX/sub ns" lines on stdout.
measure() {
  local args=()
  [[ -n ${4:-} ]] && args=(-args "$4")
  if ! env ${5:-} go test -run '^$' -bench "$2" -benchtime "$3" -count 1 "$1" "${args[@]}" >"$out.raw" 2>&1; then
    cat "$out.raw" >&2
    echo "bench-check: go test -bench '$2' $1 failed" >&2
    exit 1
  fi
  # "BenchmarkX/sub-2  N  123 ns/op ..." -> "pkg BenchmarkX/sub 123"
  awk -v pkg="$1" '/^Benchmark/ { for (i = 3; i < NF; i++) if ($(i+1) == "ns/op") { n = $1; sub(/-[0-9]+$/, "", n); print pkg, n, $i } }' "$out.raw"
}
# over PKG NAME NS: whether NS is beyond the limit for that baseline entry.
over() {
  awk -v k="$1 $2" -v ns="$3" -v factor="$factor" '$1 " " $2 == k { exit !(ns > $3 * factor) } END { if (NR == 0) exit 1 }' "$baseline" 2>/dev/null
}
for entry in "${suite[@]}"; do
  IFS='|' read -r pkg re bt targs envs <<<"$entry"
  best=$(measure "$pkg" "$re" "$bt" "$targs" "$envs")
  for try in 2 3; do
    [[ ${1:-} != --update && -f $baseline ]] || break
    read -r p n ns <<<"$best"
    [[ -n ${ns:-} ]] && over "$p" "$n" "$ns" || break
    echo "bench-check: $n at $ns ns/op is over the limit; run $try of 3" >&2
    again=$(measure "$pkg" "$re" "$bt" "$targs" "$envs")
    read -r _ _ ns2 <<<"$again"
    [[ -n ${ns2:-} ]] && awk -v a="$ns2" -v b="$ns" 'BEGIN { exit !(a < b) }' && best=$again
  done
  echo "$best" >>"$out"
done
rm -f "$out.raw"
if [[ ${1:-} == --update ]]; then
  { echo "# package benchmark ns/op, measured by scripts/bench-check.sh --update on $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)), load $(cut -d' ' -f1-3 /proc/loadavg)"; cat "$out"; } >"$baseline"
  cat "$baseline"
  exit 0
fi
[[ -f $baseline ]] || { echo "bench-check: no baseline $baseline (run with --update)" >&2; exit 1; }
awk -v factor="$factor" '
  NR == FNR { if ($1 !~ /^#/ && NF == 3) { base[$1 " " $2] = $3; order[++n] = $1 " " $2 } ; next }
  { got[$1 " " $2] = $3 }
  END {
    fail = 0
    for (i = 1; i <= n; i++) {
      k = order[i]
      if (!(k in got)) { printf "FAIL %s: missing (did not run; renamed or removed? update .ci/bench-baseline.txt)\n", k; fail = 1; continue }
      r = got[k] / base[k]
      st = r > factor ? "FAIL" : "ok  "
      if (r > factor) fail = 1
      printf "%s %s: %.0f ns/op, baseline %.0f (%.2fx, limit %sx)\n", st, k, got[k], base[k], r, factor
    }
    exit fail
  }' "$baseline" "$out"
