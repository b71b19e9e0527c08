// Browser tests of the tool cards CLI 2.1.330 cannot produce against the fake
// API (it has no Grep, Glob or MultiEdit tool, and WebFetch/WebSearch need
// the network): the fake CLI (internal/testkit/fakeclaude) plays a scripted
// turn of such calls and their results, in the CLI's line shapes.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { desktop, launchBrowser, newPage } from './browser.mjs';
import { api, signIn, startWithFakeClaude } from './ux.mjs';

const sid = '{{SESSION_ID}}';
const use = (id, name, input) => ({ type: 'assistant', message: { id: `msg_${id}`, type: 'message', role: 'assistant', model: 'claude-fake', content: [{ type: 'tool_use', id, name, input }], usage: { input_tokens: 1, output_tokens: 1 } }, parent_tool_use_id: null, session_id: sid, uuid: '{{UUID}}' });
const result = (id, content, meta) => ({ type: 'user', message: { role: 'user', content: [{ tool_use_id: id, type: 'tool_result', content }] }, tool_use_result: meta, parent_tool_use_id: null, session_id: sid, uuid: '{{UUID}}' });

const lines = [
  { type: 'system', subtype: 'init', cwd: '{{CWD}}', session_id: sid, tools: ['Grep', 'Glob', 'MultiEdit', 'WebFetch', 'WebSearch'], model: 'claude-fake', uuid: '{{UUID}}' },
  use('t1', 'Grep', { pattern: 'func main', path: 'cmd', output_mode: 'content' }),
  result('t1', 'cmd/a/main.go:3:func main() {\ncmd/b/main.go:5:func main() {\ncmd/c/main.go:9:func main() {'),
  use('t2', 'Glob', { pattern: '**/*.go', path: 'internal' }),
  result('t2', 'internal/x.go\ninternal/y.go'),
  use('t3', 'MultiEdit', { file_path: '/w/app.py', edits: [{ old_string: 'a = 1\n', new_string: 'a = 2\n' }, { old_string: 'b = 1\n', new_string: 'b = 2\nc = 3\n' }] }),
  result('t3', 'Applied 2 edits'),
  use('t4', 'WebFetch', { url: 'https://example.com/docs', prompt: 'Summarize the page' }),
  result('t4', 'A summary.'),
  use('t5', 'WebFetch', { url: 'javascript:alert(1)', prompt: 'x' }),
  result('t5', 'Invalid URL'),
  use('t6', 'WebSearch', { query: 'agentdesk tool cards' }),
  result('t6', 'Results...'),
  use('t7', 'SomeNewTool', { answer: 42 }),
  result('t7', 'fine'),
  { type: 'result', subtype: 'success', is_error: false, duration_ms: 1, num_turns: 1, result: 'Done.', session_id: sid, total_cost_usd: 0, usage: { input_tokens: 1, output_tokens: 1 }, uuid: '{{UUID}}' },
];

describe('tool cards from recorded lines', { timeout: 200_000 }, () => {
  let tmp;
  let server;
  let browser;
  let page;

  before(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'agentdesk-tools-rec-'));
    server = await startWithFakeClaude(tmp, lines);
    browser = await launchBrowser();
    const s = await api(server, 'POST', '/api/sessions', { cwd: await server.tempDir(), title: 'recorded tools' });
    page = await newPage(browser, desktop);
    await signIn(page, server, `/s/${s.id}/w/${s.workers[0].id}`);
    const input = page.locator('.pane-chat:not([hidden]) .chat-input');
    await page.waitForFunction((el) => !el.disabled, await input.elementHandle());
    await input.fill('go');
    await input.press('Enter');
    await page.locator('.pane-chat:not([hidden]) .chat-result').waitFor();
  });

  after(async () => {
    await browser?.close();
    await server?.dispose();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  const card = (name) => page.locator(`.pane-chat:not([hidden]) .chat-tool[data-tool="${name}"]`);
  const facts = (name) => card(name).first().locator('.tool-facts').innerText();

  test('Grep and Glob show pattern, place and counts', async () => {
    assert.match(await facts('Grep'), /Pattern\s+func main\s+In\s+cmd\s+Mode\s+content/);
    assert.equal(await card('Grep').locator('.tool-count').evaluate((e) => e.firstChild.textContent), '3 matches');
    assert.match(await facts('Glob'), /Pattern\s+\*\*\/\*\.go\s+In\s+internal/);
    assert.equal(await card('Glob').locator('.tool-count').evaluate((e) => e.firstChild.textContent), '2 files');
  });

  test('MultiEdit shows each edit as red/green lines', async () => {
    const rows = await card('MultiEdit').locator('.dl').evaluateAll((els) => els.map((e) => e.dataset.kind + ' ' + e.lastChild.textContent));
    assert.deepEqual(rows, ['del a = 1', 'add a = 2', 'del b = 1', 'add b = 2', 'add c = 3']);
    assert.equal(await card('MultiEdit').locator('a.tool-file').innerText(), '/w/app.py');
  });

  test('WebFetch links only http(s) URLs; WebSearch shows the query', async () => {
    const link = card('WebFetch').first().locator('.tool-facts a');
    assert.equal(await link.getAttribute('href'), 'https://example.com/docs');
    assert.equal(await link.getAttribute('rel'), 'noopener noreferrer nofollow');
    assert.match(await facts('WebFetch'), /Prompt\s+Summarize the page/);
    const bad = card('WebFetch').nth(1);
    assert.equal(await bad.locator('.tool-facts a').count(), 0, 'a javascript: URL is no link');
    assert.equal(await bad.locator('.tool-facts code').innerText(), 'javascript:alert(1)');
    assert.match(await facts('WebSearch'), /Query\s+agentdesk tool cards/);
  });

  test('an unknown tool keeps the generic card', async () => {
    const c = card('SomeNewTool');
    assert.match(await c.locator('.tool-title').innerText(), /"answer":42/);
    assert.equal(await c.locator('.tool-input').count(), 1);
    assert.match(await c.locator('.tool-result').innerText(), /fine/);
    assert.deepEqual(page.errors, []);
  });
});
