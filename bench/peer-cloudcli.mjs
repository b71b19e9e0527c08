// CloudCLI (siteboon/claudecodeui, version 1.12.0) as a peer for the chat
// benchmarks. Nothing of it is in this repository: PEER_DIR names a copy
// of its source at that version that the person running the benchmark has
// installed (`npm ci`) and built (`npm run build`, which makes dist/) by its
// own README. This module only runs it:
//   node --import bench/loopback-listen.mjs server/index.js
// with PORT, HOME (whose .claude/projects holds the generated
// conversations: CloudCLI reads the CLI's session files there) and
// DATABASE_PATH in a temp dir, bound to 127.0.0.1 by the preload, then
// registers its single user over its own API and hands back the token the
// app keeps in localStorage ('auth-token').
import { spawn } from 'node:child_process';
import { access, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { freePort } from '../e2e/server.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export class CloudCLI {
  /** Starts the peer in dir with home as its HOME; tmp holds its database. */
  static async start({ dir, home, tmp, env = {} }) {
    for (const f of ['server/index.js', 'dist/index.html', 'node_modules']) {
      try {
        await access(path.join(dir, f));
      } catch {
        throw new Error(`PEER_DIR ${dir} has no ${f}: install and build CloudCLI there first (npm ci && npm run build)`);
      }
    }
    await mkdir(tmp, { recursive: true });
    const port = await freePort();
    const childEnv = {};
    for (const [k, v] of Object.entries(process.env)) if (!/^(ANTHROPIC_|CLAUDE_|OPENAI_|API_KEY$|JWT_SECRET$|VITE_)/.test(k)) childEnv[k] = v;
    Object.assign(childEnv, { HOME: home, PORT: String(port), DATABASE_PATH: path.join(tmp, 'auth.db'), NODE_ENV: 'production', ...env });
    const child = spawn(process.execPath, ['--import', pathToFileURL(path.join(here, 'loopback-listen.mjs')).href, 'server/index.js'],
      { cwd: dir, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    const peer = new CloudCLI(child, port);
    await peer.ready();
    return peer;
  }

  constructor(child, port) {
    this.child = child;
    this.port = port;
    this.output = '';
    const keep = (b) => { this.output = (this.output + b.toString()).slice(-20_000); };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    this.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  }

  get url() {
    return `http://127.0.0.1:${this.port}`;
  }

  get pid() {
    return this.child.pid;
  }

  async ready() {
    let dead = null;
    void this.exited.then((r) => { dead = r; });
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      if (dead !== null) throw new Error(`CloudCLI exited at start (${JSON.stringify(dead)}):\n${this.output}`);
      try {
        const res = await fetch(`${this.url}/health`, { signal: AbortSignal.timeout(1000) });
        if (res.ok) break;
      } catch { /* not yet */ }
      await sleep(100);
    }
    const res = await fetch(`${this.url}/api/auth/register`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'bench', password: 'bench-password' }),
    });
    if (!res.ok) throw new Error(`CloudCLI register: ${res.status} ${await res.text()}`);
    this.token = (await res.json()).token;
  }

  /** The app's route of a conversation (the sidebar finds its project itself). */
  route(sid) {
    return `/session/${sid}`;
  }

  /** An init script's argument that signs a page in: the token in localStorage. */
  async signIn(page, origin) {
    await page.addInitScript(([o, t]) => {
      if (location.origin === o) localStorage.setItem('auth-token', t);
    }, [origin, this.token]);
  }

  async dispose() {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGTERM');
    const t = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    await this.exited;
    clearTimeout(t);
  }
}
