// Starts a real agentdesk binary for browser tests: a free loopback port, a
// temporary data dir and HOME, a random token; waits for /api/health; stops it
// with SIGTERM. restart() keeps the data dir and port (a server restart as a
// user would see it). The binary is not built here: AGENTDESK_BIN, default
// ./agentdesk in the repository root. opts.env (an object, or a function of
// the server's HOME returning one) adds to, or with a value of undefined
// removes from, the child's environment; opts.args are extra CLI
// arguments after the standard ones.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const startTimeoutMs = 15_000;
const stopTimeoutMs = 10_000;

/** A port nothing listens on right now: bind port 0, read it, close. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** The environment for the child: no agentdesk, Claude, Codex or OpenAI settings from the caller, a private HOME. */
function childEnv(home, extra = {}) {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(AGENTDESK_|ANTHROPIC_|CLAUDE_|CODEX_|OPENAI_)/.test(k)) continue;
    env[k] = v;
  }
  env.HOME = home;
  env.SHELL = env.SHELL || '/bin/sh';
  env.ANTHROPIC_API_KEY = 'sk-ant-e2e-fake';
  env.ANTHROPIC_BASE_URL = 'http://127.0.0.1:9'; // nothing listens: no real API is ever reached
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = String(v);
  }
  return env;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export class AgentdeskServer {
  /** Creates the temp dirs and starts the server. */
  static async start(opts = {}) {
    const tmp = await mkdtemp(path.join(os.tmpdir(), 'agentdesk-e2e-'));
    const s = new AgentdeskServer({
      bin: opts.bin ?? process.env.AGENTDESK_BIN ?? path.join(repoRoot, 'agentdesk'),
      tmp,
      port: await freePort(),
      token: randomBytes(16).toString('hex'),
      env: opts.env,
      args: opts.args,
    });
    await s.start();
    return s;
  }

  constructor({ bin, tmp, port, token, env = {}, args = [] }) {
    this.bin = bin;
    this.tmp = tmp;
    this.dataDir = path.join(tmp, 'data');
    this.home = path.join(tmp, 'home');
    /** Extra environment of the child (a value of undefined removes the variable). */
    this.env = typeof env === 'function' ? env(this.home) : { ...env };
    /** Extra CLI arguments after --addr, --data-dir and --token. */
    this.args = [...args];
    this.port = port;
    this.token = token;
    this.child = null;
    this.output = '';
  }

  get url() {
    return `http://127.0.0.1:${this.port}`;
  }

  /** A fresh directory under the test's temp dir (for session cwds). */
  async tempDir(prefix = 'work-') {
    return mkdtemp(path.join(this.tmp, prefix));
  }

  async start() {
    if (this.child !== null) throw new Error('server already running');
    await mkdir(this.home, { recursive: true });
    const args = ['--addr', `127.0.0.1:${this.port}`, '--data-dir', this.dataDir, '--token', this.token, ...this.args];
    const child = spawn(this.bin, args, { cwd: repoRoot, env: childEnv(this.home, this.env), stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    this.exited = exited;
    const keep = (b) => {
      this.output = (this.output + b.toString()).slice(-20_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const spawnError = new Promise((_, reject) => child.once('error', reject));
    await Promise.race([this.waitHealthy(exited), spawnError]);
  }

  async waitHealthy(exited) {
    const deadline = Date.now() + startTimeoutMs;
    let dead = null;
    exited.then((r) => (dead = r));
    while (Date.now() < deadline) {
      if (dead !== null) throw new Error(`agentdesk exited at start (${JSON.stringify(dead)}):\n${this.output}`);
      try {
        const res = await fetch(`${this.url}/api/health`, { signal: AbortSignal.timeout(1000) });
        if (res.ok) return;
      } catch {
        // not listening yet
      }
      await sleep(50);
    }
    throw new Error(`agentdesk not healthy within ${startTimeoutMs} ms:\n${this.output}`);
  }

  /** SIGTERM, then SIGKILL if it does not exit in time. Returns the exit status. */
  async stop() {
    const child = this.child;
    if (child === null) return null;
    this.child = null;
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const timeout = sleep(stopTimeoutMs).then(() => 'timeout');
    let r = await Promise.race([this.exited, timeout]);
    if (r === 'timeout') {
      child.kill('SIGKILL');
      r = await this.exited;
      throw new Error(`agentdesk did not exit within ${stopTimeoutMs} ms of SIGTERM:\n${this.output}`);
    }
    return r;
  }

  /** Stops and starts again on the same data dir, token and port. */
  async restart() {
    await this.stop();
    await this.start();
  }

  /** Stops the server and removes every temp file. */
  async dispose() {
    try {
      await this.stop();
    } finally {
      await rm(this.tmp, { recursive: true, force: true });
    }
  }
}
