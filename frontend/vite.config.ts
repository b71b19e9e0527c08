// Vite config for the agentdesk SPA. Run from the repository root:
//   npm run build   -> frontend/dist (embedded into the Go binary by embed.go)
//   npm run dev     -> dev server proxying /api and /ws to a local agentdesk on :7878
// This file is not type-checked by `tsc -p frontend` (no @types/node installed);
// Vite bundles and runs it itself.
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));
const outDir = resolve(root, 'dist');
const backend = '127.0.0.1:7878';

// emptyOutDir wipes frontend/dist, but `//go:embed all:frontend/dist` needs the
// committed placeholder so `go build` works without npm: put it back after each build.
function keepGitkeep(): Plugin {
  return {
    name: 'agentdesk-keep-gitkeep',
    apply: 'build',
    closeBundle() {
      mkdirSync(outDir, { recursive: true });
      writeFileSync(resolve(outDir, '.gitkeep'), '');
    },
  };
}

export default defineConfig({
  root,
  base: '/',
  plugins: [keepGitkeep()],
  build: {
    outDir,
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
  },
  server: {
    // The Host stays localhost:<dev port>, so the server sees a same-origin request;
    // if it refuses the dev origin, start it with --allowed-origins http://localhost:5173.
    proxy: {
      '/api': { target: `http://${backend}` },
      '/ws': { target: `ws://${backend}`, ws: true },
    },
  },
});
