// The fake Messages API (internal/testkit/fakeapi/cmd/fakeapi) for browser tests that
// run the real Claude CLI (node_modules/.bin/claude), and the environment and
// arguments that point agentdesk's CLI at it.
import { execFile, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The CLI the tests run. */
export const claudeBin = path.join(repoRoot, 'node_modules', '.bin', 'claude');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Builds the fake API into dir and starts it; resolves when it printed its URL. */
export async function startFakeApi(dir) {
  const bin = path.join(dir, 'fakeapi');
  await promisify(execFile)('go', ['build', '-o', bin, './internal/testkit/fakeapi/cmd/fakeapi'], { cwd: repoRoot, timeout: 180_000 });
  const child = spawn(bin, [], { stdio: ['pipe', 'pipe', 'pipe'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let log = '';
  child.stderr.on('data', (b) => (log = (log + b.toString()).slice(-50_000)));
  const url = await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error('fakeapi printed no URL within 10 s')), 10_000);
    child.once('error', reject);
    child.stdout.on('data', (b) => {
      out += b.toString();
      const nl = out.indexOf('\n');
      if (nl >= 0) {
        clearTimeout(timer);
        resolve(out.slice(0, nl).trim());
      }
    });
  });
  return {
    url,
    log: () => log,
    /** Closing stdin ends it; SIGKILL if it does not go within 10 s. */
    async stop() {
      child.stdin.end();
      const r = await Promise.race([exited, sleep(10_000).then(() => 'timeout')]);
      if (r === 'timeout') child.kill('SIGKILL');
    },
  };
}

/**
 * AgentdeskServer options running the real CLI against the fake API at url:
 * its config in the server's temp HOME, every request to loopback, nothing
 * non-essential (telemetry, updates, marketplace).
 */
export function claudeServerOptions(url) {
  return {
    args: ['--claude', claudeBin],
    env: (home) => ({
      CLAUDE_CONFIG_DIR: path.join(home, '.claude'),
      ANTHROPIC_BASE_URL: url,
      ANTHROPIC_API_KEY: 'sk-fake',
      HTTPS_PROXY: url, HTTP_PROXY: url, https_proxy: url, http_proxy: url,
      NO_PROXY: '127.0.0.1,localhost', no_proxy: '127.0.0.1,localhost',
      CLAUDE_CODE_MAX_RETRIES: '1',
      DISABLE_TELEMETRY: '1', DISABLE_ERROR_REPORTING: '1', DISABLE_AUTOUPDATER: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL: '1',
    }),
  };
}
