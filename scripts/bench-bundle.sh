#!/usr/bin/env bash
# Prints the size of the built frontend JavaScript, raw and gzipped (-9),
# per file and in total. Run `npm run build` first.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
shopt -s nullglob
files=("$root"/frontend/dist/assets/*.js)
(( ${#files[@]} )) || { echo "no frontend/dist/assets/*.js: run npm run build" >&2; exit 1; }
raw=0 gz=0
for f in "${files[@]}"; do
  r=$(wc -c <"$f")
  g=$(gzip -9c "$f" | wc -c)
  printf '%-40s raw=%d gzip=%d\n' "$(basename "$f")" "$r" "$g"
  raw=$((raw + r)) gz=$((gz + g))
done
printf 'total raw=%d (%.1f KB) gzip=%d (%.1f KB); target gzip <= 250 KB\n' "$raw" "$(echo "$raw/1000" | bc -l)" "$gz" "$(echo "$gz/1000" | bc -l)"
