// Vite config for the agentdesk SPA. Run from the repository root:
//   npm run build   -> frontend/dist (embedded into the Go binary by embed.go)
//   npm run dev     -> dev server proxying /api and /ws to a local agentdesk on :7878
// This file is not type-checked by `tsc -p frontend` (no @types/node installed);
// Vite bundles and runs it itself.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
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

// The tools client (src/tools/client.js, which the app bundles too) is also
// served as it is at /tools-client.js, for other pages and programs that
// give the agent tools (docs/api-extensions.md, "Tools from the browser").
function toolsClient(): Plugin {
  return {
    name: 'agentdesk-tools-client',
    apply: 'build',
    generateBundle() {
      const source = readFileSync(resolve(root, 'src/tools/client.js'), 'utf8');
      this.emitFile({ type: 'asset', fileName: 'tools-client.js', source });
    },
  };
}

// The service worker (sw.js, a template at the frontend root) caches the app
// shell: this build's assets, the public files and the page. Its list and a
// version derived from it are written into dist/sw.js, so every build that
// changes the shell installs a new worker that drops the old cache.
function serviceWorker(): Plugin {
  return {
    name: 'agentdesk-service-worker',
    apply: 'build',
    generateBundle(_options, bundle) {
      const pub = resolve(root, 'public');
      const publicFiles = readdirSync(pub, { recursive: true, withFileTypes: true })
        .filter((d) => d.isFile())
        .map((d) => '/' + resolve(d.parentPath, d.name).slice(pub.length + 1));
      const built = Object.keys(bundle).filter((f) => f !== 'index.html').map((f) => '/' + f);
      const shell = ['/', '/highlight.css', ...publicFiles, ...built].sort();
      // Built names carry a content hash; public files are hashed here.
      const hash = createHash('sha256').update(shell.join('\n'));
      for (const f of publicFiles) hash.update(readFileSync(resolve(pub, f.slice(1))));
      const version = hash.digest('hex').slice(0, 12);
      const source = readFileSync(resolve(root, 'sw.js'), 'utf8')
        .replace(/\/\*SHELL\*\/ \[[^\]]*\]/, JSON.stringify(shell))
        .replace(/\/\*VERSION\*\/ '[^']*'/, JSON.stringify(version));
      this.emitFile({ type: 'asset', fileName: 'sw.js', source });
    },
  };
}

// Every text file of the build over 1 KB also as name.br (brotli, best) and
// name.gz (gzip -9), made once here: the server sends the one the browser
// accepts (server/spa.go) and compresses nothing at run time. Node's own
// zlib does both, so no plugin package is needed.
function precompress(): Plugin {
  return {
    name: 'agentdesk-precompress',
    apply: 'build',
    closeBundle() {
      for (const d of readdirSync(outDir, { recursive: true, withFileTypes: true })) {
        const file = resolve(d.parentPath, d.name);
        if (!d.isFile() || !/\.(js|css|html|svg|json|webmanifest)$/.test(d.name) || statSync(file).size < 1024) continue;
        const data = readFileSync(file);
        writeFileSync(file + '.br', brotliCompressSync(data, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: data.length } }));
        writeFileSync(file + '.gz', gzipSync(data, { level: 9 }));
      }
    },
  };
}

export default defineConfig({
  root,
  base: '/',
  plugins: [keepGitkeep(), toolsClient(), serviceWorker(), precompress()],
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
