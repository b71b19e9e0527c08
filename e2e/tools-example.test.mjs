// The documented example provider (examples/tools-provider.mjs) against a
// real agentdesk: it connects with the token, registers roll_dice for
// every session, and the session's tool list names it with its provider;
// when it stops, the tool goes.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { AgentdeskServer } from './server.mjs';
import { api } from './ux.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
let server;
let tmp;

before(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'agentdesk-tools-example-'));
  server = await AgentdeskServer.start();
});

after(async () => {
  await server?.dispose();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

const listed = async (sid) => (await api(server, 'GET', `/api/sessions/${sid}/tools`)).tools.map((t) => `${t.name}@${t.provider}`);

test('the example provider registers roll_dice for every session', { timeout: 60_000 }, async () => {
  const s = await api(server, 'POST', '/api/sessions', { cwd: tmp, agent: 'none' });
  const flags = typeof globalThis.WebSocket === 'undefined' ? ['--experimental-websocket'] : [];
  const child = spawn(process.execPath, [...flags, path.join(repoRoot, 'examples', 'tools-provider.mjs')], {
    env: { ...process.env, AGENTDESK_URL: server.url, AGENTDESK_TOKEN: server.token }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stderr.on('data', (b) => (out += b));
  const ready = new Promise((resolve, reject) => {
    child.stdout.on('data', (b) => {
      out += b;
      if (out.includes('roll_dice is registered')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`the example exited (${code}): ${out}`)));
  });
  try {
    await ready;
    assert.ok((await listed(s.id)).includes('roll_dice@dice roller'), out);
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGINT');
    await exited;
  }
  for (let i = 0; i < 100 && (await listed(s.id)).includes('roll_dice@dice roller'); i++) await new Promise((r) => setTimeout(r, 50));
  assert.ok(!(await listed(s.id)).includes('roll_dice@dice roller'), 'the tool stayed after the provider left');
});
