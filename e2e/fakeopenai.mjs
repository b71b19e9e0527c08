// The fake OpenAI Responses API (internal/testkit/fakeopenai/cmd/fakeopenai)
// for browser tests that run the real Codex CLI (node_modules/.bin/codex,
// pinned 0.171.0), and the environment and arguments that point agentdesk's
// Codex driver at it: a CODEX_HOME in the server's temp HOME whose
// config.toml names the fake as the model provider (never the machine's
// ~/.codex), the sandbox helper link on PATH (CODEX_HOME is under /tmp), and
// the proxies at the fake so that any other host is refused on loopback.
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The CLI the tests run. */
export const codexBin = path.join(repoRoot, 'node_modules', '.bin', 'codex');
/** The static binary the npm wrapper runs (the sandbox helper is a link to it). */
const nativeCodex = path.join(repoRoot, 'node_modules', '@openai', 'codex-linux-x64', 'vendor',
  'x86_64-unknown-linux-musl', 'bin', 'codex');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Builds the fake API into dir and starts it; resolves when it printed its URL. */
export async function startFakeOpenAI(dir, env = {}) {
  const bin = path.join(dir, 'fakeopenai');
  await promisify(execFile)('go', ['build', '-o', bin, './internal/testkit/fakeopenai/cmd/fakeopenai'], { cwd: repoRoot, timeout: 180_000 });
  const child = spawn(bin, [], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let log = '';
  child.stderr.on('data', (b) => (log = (log + b.toString()).slice(-50_000)));
  const lines = [];
  let waiting = null;
  let out = '';
  child.stdout.on('data', (b) => {
    out += b.toString();
    for (let nl = out.indexOf('\n'); nl >= 0; nl = out.indexOf('\n')) {
      lines.push(out.slice(0, nl).trim());
      out = out.slice(nl + 1);
    }
    waiting?.();
  });
  const nextLine = () => new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('fakeopenai said nothing within 10 s')), 10_000);
    const check = () => {
      if (lines.length === 0) return;
      clearTimeout(timer);
      waiting = null;
      resolve(lines.shift());
    };
    waiting = check;
    check();
  });
  const url = await nextLine();
  /** Sends a stdin command ("down", "up") and waits for its "ok". */
  const command = async (cmd) => {
    child.stdin.write(`${cmd}\n`);
    const answer = await nextLine();
    if (answer !== 'ok') throw new Error(`fakeopenai ${cmd}: ${answer}`);
  };
  return {
    url,
    log: () => log,
    /** Takes the API down: connections are refused (Codex retries for ever). */
    down: () => command('down'),
    up: () => command('up'),
    /** Closing stdin ends it; SIGKILL if it does not go within 10 s. */
    async stop() {
      child.stdin.end();
      const r = await Promise.race([exited, sleep(10_000).then(() => 'timeout')]);
      if (r === 'timeout') child.kill('SIGKILL');
    },
  };
}

/** config.toml for a CODEX_HOME that uses the fake at url. */
function codexConfig(url) {
  return [
    'model_provider = "fake"',
    'model = "gpt-fake"',
    '',
    '[model_providers.fake]',
    'name = "Fake"',
    `base_url = "${url}/v1"`,
    'env_key = "FAKE_OPENAI_KEY"',
    'wire_api = "responses"',
    '',
  ].join('\n');
}

/**
 * AgentdeskServer options running the real Codex CLI against the fake API
 * at url. The files go into the server's temp HOME when the options are
 * applied; extraEnv(home) adds variables (another agent's, say).
 */
export function codexServerOptions(url, extraEnv = () => ({})) {
  return {
    args: ['--codex', codexBin],
    env: (home) => {
      const codexHome = path.join(home, '.codex');
      mkdirSync(codexHome, { recursive: true });
      writeFileSync(path.join(codexHome, 'config.toml'), codexConfig(url));
      const bin = path.join(home, 'bin');
      mkdirSync(bin, { recursive: true });
      const link = path.join(bin, 'codex-linux-sandbox');
      if (!existsSync(link)) symlinkSync(nativeCodex, link);
      return {
        PATH: `${bin}:${process.env.PATH}`,
        CODEX_HOME: codexHome,
        FAKE_OPENAI_KEY: 'sk-fake',
        HTTPS_PROXY: url, HTTP_PROXY: url, https_proxy: url, http_proxy: url,
        NO_PROXY: '127.0.0.1,localhost', no_proxy: '127.0.0.1,localhost',
        ...extraEnv(home),
      };
    },
  };
}
