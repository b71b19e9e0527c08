#!/usr/bin/env bash
# Builds the two terminal servers agentdesk is compared with, from source
# trees you already have, into OUT (default /tmp/agentdesk-peers). It never
# changes the source trees (it copies them into OUT first) and fetches no
# source code; building needs their dependencies, from the Go module proxy
# (gotty) and the npm registry (agent-console, and Bun itself). Once built,
# bench/peers.sh runs offline. See bench/README.md for where the sources
# come from and what the build changes in agent-console's copy.
#
#   bench/peers-build.sh GOTTY_SRC AGENT_CONSOLE_SRC [OUT]
#
# Leaves: OUT/gotty (binary), OUT/agent-console (built tree: dist/index.js),
# OUT/bun/node_modules/.bin/bun.
set -euo pipefail
gotty_src=${1:?usage: peers-build.sh GOTTY_SRC AGENT_CONSOLE_SRC [OUT]}
ac_src=${2:?usage: peers-build.sh GOTTY_SRC AGENT_CONSOLE_SRC [OUT]}
out=${3:-/tmp/agentdesk-peers}
bun_version=${BUN_VERSION:-1.4.4}
mkdir -p "$out"
out=$(cd "$out" && pwd)

echo "== gotty from $gotty_src"
rm -rf "$out/gotty-src"
cp -a "$gotty_src" "$out/gotty-src"
(cd "$out/gotty-src" && go build -o "$out/gotty" .)

echo "== bun $bun_version (npm package bun, which ships the binary)"
mkdir -p "$out/bun"
if [[ ! -x $out/bun/node_modules/.bin/bun ]]; then
  (cd "$out/bun" && npm init -y >/dev/null && npm install --no-audit --no-fund "bun@$bun_version")
fi
bun=$out/bun/node_modules/.bin/bun
"$bun" --version

echo "== agent-console from $ac_src"
rm -rf "$out/agent-console"
cp -a "$ac_src" "$out/agent-console"
cd "$out/agent-console"
# Only the server's packages are built; the React client is not needed to
# serve a terminal, so a placeholder page stands in for it (the server
# reads dist/public/index.html at start). @hono/mcp comes from JSR upstream;
# the same package is on npm, which is the registry reachable here.
sed -i 's#^@jsr:registry=.*##' .npmrc
sed -i 's#"@hono/mcp": "npm:@jsr/hono__mcp"#"@hono/mcp": "0.3.2"#' packages/server/package.json
node -e '
const fs = require("fs");
const p = JSON.parse(fs.readFileSync("package.json", "utf8"));
p.devDependencies = { typescript: p.devDependencies.typescript };
delete p.scripts.preinstall;   // checks the Bun version, done above
delete p.scripts.postinstall;  // installs git hooks
p.workspaces = ["packages/shared", "packages/server", "packages/embedded-agent"];
fs.writeFileSync("package.json", JSON.stringify(p, null, 2));
'
rm -f bun.lock pnpm-lock.yaml # the lock names the JSR package
PATH=$out/bun/node_modules/.bin:$PATH "$bun" install --ignore-scripts
(cd packages/shared && PATH=$out/bun/node_modules/.bin:$PATH "$bun" run build)
(cd packages/server && PATH=$out/bun/node_modules/.bin:$PATH NODE_ENV=production "$bun" build.ts)
mkdir -p dist/public
echo '<!doctype html><title>agent-console (client not built for the benchmark)</title>' >dist/public/index.html
echo "built: $out/gotty, $out/agent-console/dist/index.js, $bun"
