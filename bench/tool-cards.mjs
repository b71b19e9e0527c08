// First render of a tool-heavy conversation in Chromium (issue 15's tool
// cards): one scripted turn of the fake CLI with CALLS tool calls (default
// 3000), a third each of Edit (with its structuredPatch result), Bash (ANSI
// output) and TodoWrite, each with its result. The figure is the time from
// navigation start until the turn footer and every card are in the DOM, two
// animation frames later (as bench/render.mjs). Median of RUNS (default 3)
// fresh browser contexts. Compare two builds by running it with each binary.
//   go build -o /tmp/b/agentdesk . && go build -o /tmp/b/fakeclaude ./internal/testkit/fakeclaude
//   AGENTDESK_BIN=/tmp/b/agentdesk FAKECLAUDE_BIN=/tmp/b/fakeclaude node bench/tool-cards.mjs
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { launchBrowser, newPage } from '../e2e/browser.mjs';
import { AgentdeskServer } from '../e2e/server.mjs';

const calls = Number(process.env.CALLS ?? 3000);
const runs = Number(process.env.RUNS ?? 3);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const sid = '{{SESSION_ID}}';

const assistant = (id, content) => ({ type: 'assistant', message: { id, type: 'message', role: 'assistant', model: 'claude-fake', content, usage: { input_tokens: 1, output_tokens: 1 } }, parent_tool_use_id: null, session_id: sid, uuid: '{{UUID}}' });
const result = (id, content, meta) => ({ type: 'user', message: { role: 'user', content: [{ tool_use_id: id, type: 'tool_result', content }] }, tool_use_result: meta, parent_tool_use_id: null, session_id: sid, uuid: '{{UUID}}' });

/** The lines of one call i: an Edit, a Bash or a TodoWrite, and its result. */
function call(i) {
  const id = `toolu_${i}`;
  if (i % 3 === 0) {
    const input = { file_path: `src/f${i}.go`, old_string: `\treturn a + ${i}\n`, new_string: `\t// Sum.\n\treturn a + b + ${i}\n` };
    const patch = [{ oldStart: 10, oldLines: 3, newStart: 10, newLines: 4, lines: [' func f(a, b int) int {', `-\treturn a + ${i}`, '+\t// Sum.', `+\treturn a + b + ${i}`, ' }'] }];
    return [assistant(`msg_${i}`, [{ type: 'tool_use', id, name: 'Edit', input }]), result(id, 'updated', { structuredPatch: patch })];
  }
  if (i % 3 === 1) {
    const out = Array.from({ length: 8 }, (_, k) => `\x1b[32mok\x1b[0m  pkg/${k}\t0.0${k}s \x1b[1;31m${k}\x1b[0m`).join('\n');
    return [assistant(`msg_${i}`, [{ type: 'tool_use', id, name: 'Bash', input: { command: 'go test ./...', description: 'Run the tests' } }]), result(id, out)];
  }
  const todos = ['Read', 'Build', 'Test'].map((c, k) => ({ content: c, activeForm: c + 'ing', status: k === 0 ? 'completed' : k === 1 ? 'in_progress' : 'pending' }));
  return [assistant(`msg_${i}`, [{ type: 'tool_use', id, name: 'TodoWrite', input: { todos } }]), result(id, 'Todos have been modified successfully.')];
}

async function api(server, method, p, body) {
  const res = await fetch(server.url + p, { method, headers: { Authorization: `Bearer ${server.token}`, 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
  return res.status === 202 || res.status === 204 ? null : res.json();
}

function installProbe(n) {
  const tick = () => {
    if (document.querySelector('.chat-result') === null || document.querySelectorAll('.chat-tool').length < n) {
      requestAnimationFrame(tick);
      return;
    }
    requestAnimationFrame(() => requestAnimationFrame(() => (window.__render = performance.now())));
  };
  requestAnimationFrame(tick);
}

const bin = process.env.AGENTDESK_BIN;
const fake = process.env.FAKECLAUDE_BIN;
if (!bin || !fake) throw new Error('set AGENTDESK_BIN and FAKECLAUDE_BIN (absolute paths)');
const tmp = await mkdtemp(path.join(os.tmpdir(), 'agentdesk-toolbench-'));
const lines = [{ type: 'system', subtype: 'init', cwd: '{{CWD}}', session_id: sid, tools: ['Bash', 'Edit', 'TodoWrite'], model: 'claude-fake', uuid: '{{UUID}}' }];
for (let i = 0; i < calls; i++) lines.push(...call(i));
lines.push({ type: 'result', subtype: 'success', is_error: false, duration_ms: 1, num_turns: 1, result: 'Done.', session_id: sid, total_cost_usd: 0, usage: { input_tokens: 1, output_tokens: 1 }, uuid: '{{UUID}}' });
const script = path.join(tmp, 'turn.jsonl');
await writeFile(script, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
const server = await AgentdeskServer.start({ bin, args: ['--claude', fake], env: { FAKECLAUDE_SCRIPT: script } });
const browser = await launchBrowser();
try {
  const s = await api(server, 'POST', '/api/sessions', { cwd: await server.tempDir(), title: 'tools' });
  const wid = s.workers[0].id;
  await api(server, 'POST', `/api/sessions/${s.id}/workers/${wid}/input`, { content: 'go' });
  // Wait until REST holds the whole turn (its result line), reading the pages in order.
  const deadline = Date.now() + 120_000;
  for (let after = '', done = false; !done; await sleep(200)) {
    if (Date.now() > deadline) throw new Error('the turn was not stored within 120 s');
    for (let more = true; more;) {
      const r = await api(server, 'GET', `/api/sessions/${s.id}/workers/${wid}/messages?limit=5000&after=${after}`);
      if (r.messages.length > 0) after = r.messages.at(-1).message.uuid;
      done ||= r.messages.some((m) => m.message.type === 'result');
      more = r.hasMore && r.messages.length > 0;
    }
  }
  const times = [];
  for (let i = 0; i < runs; i++) {
    const page = await newPage(browser);
    await page.goto(`${server.url}/?token=${server.token}`);
    await page.addInitScript(installProbe, calls);
    await page.goto(`${server.url}/s/${s.id}/w/${wid}`);
    await page.waitForFunction(() => window.__render !== undefined, null, { timeout: 120_000, polling: 500 });
    times.push(await page.evaluate(() => window.__render));
    await page.context().close();
  }
  const sorted = [...times].sort((a, b) => a - b);
  console.log(`tool-cards calls=${calls} median=${sorted[Math.floor(runs / 2)].toFixed(0)} ms runs=${times.map((t) => t.toFixed(0)).join(' ')} load=${os.loadavg()[0].toFixed(1)}`);
} finally {
  await browser.close();
  await server.dispose();
  await rm(tmp, { recursive: true, force: true });
}
