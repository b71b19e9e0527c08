#!/usr/bin/env bash
# Prints the size of the built frontend JavaScript, raw and gzipped (-9),
# per file and in total, split into what the first load fetches (the
# scripts index.html names and every chunk they import statically) and
# the chunks loaded later by a dynamic import() (the Files tab's editor
# and its languages). The 250 KB target is for the first load, xterm
# included. Run `npm run build` first.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dist=$root/frontend/dist
shopt -s nullglob
files=("$dist"/assets/*.js)
(( ${#files[@]} )) || { echo "no frontend/dist/assets/*.js: run npm run build" >&2; exit 1; }
# initial: index.html's scripts and modulepreloads, then their static
# imports (from"./x.js", import"./x.js"; import("./x.js") is lazy).
initial=$(node -e '
const fs = require("fs"), path = require("path");
const dist = process.argv[1];
const html = fs.readFileSync(path.join(dist, "index.html"), "utf8");
const todo = [...html.matchAll(/(?:src|href)="\/assets\/([^"]+\.js)"/g)].map((m) => m[1]);
const seen = new Set();
while (todo.length > 0) {
  const f = todo.pop();
  if (seen.has(f)) continue;
  seen.add(f);
  const js = fs.readFileSync(path.join(dist, "assets", f), "utf8");
  for (const m of js.matchAll(/(?:\bfrom|\bimport)\s*["\x27`]\.\/([^"\x27`]+\.js)["\x27`]/g)) todo.push(m[1]);
}
console.log([...seen].join("\n"));
' "$dist")
raw=0 gz=0 lraw=0 lgz=0
for f in "${files[@]}"; do
  name=$(basename "$f")
  r=$(wc -c <"$f")
  g=$(gzip -9c "$f" | wc -c)
  if grep -qxF "$name" <<<"$initial"; then
    kind=initial raw=$((raw + r)) gz=$((gz + g))
  else
    kind=lazy lraw=$((lraw + r)) lgz=$((lgz + g))
  fi
  printf '%-40s %-8s raw=%d gzip=%d\n' "$name" "$kind" "$r" "$g"
done
printf 'first load raw=%d (%.1f KB) gzip=%d (%.1f KB); target gzip <= 250 KB\n' "$raw" "$(echo "$raw/1000" | bc -l)" "$gz" "$(echo "$gz/1000" | bc -l)"
printf 'loaded later raw=%d (%.1f KB) gzip=%d (%.1f KB)\n' "$lraw" "$(echo "$lraw/1000" | bc -l)" "$lgz" "$(echo "$lgz/1000" | bc -l)"
