// Browser end-to-end for the tool bridge's browser side and the agent's
// settings (issue 26): the tab serves agentdesk's own tools for the session
// it shows; another page of the same origin gives the agent a tool with
// /tools-client.js; a turn cut by the turn limit shows as "limit reached"
// with Continue; the Agent dialog's limits panel and MCP panel (secrets
// masked, on/off, remove) at desktop and phone size. Screenshots go to
// $TOOLS_SHOTS when set.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { desktop, launchBrowser, newPage, phone } from './browser.mjs';
import { api, overflow, signIn, startWithFakeClaude } from './ux.mjs';

const waitMs = 30_000;
const shots = process.env.TOOLS_SHOTS ?? '';
const secret = 'ghp_e2e_secret_4711';

function limitTurn() {
  const sid = '{{SESSION_ID}}';
  return [
    { type: 'system', subtype: 'init', cwd: '{{CWD}}', session_id: sid, tools: ['Bash'], model: 'claude-fake', permissionMode: 'default', uuid: '{{UUID}}' },
    { type: 'assistant', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-fake', content: [{ type: 'text', text: 'Working on it.' }], stop_reason: null, usage: { input_tokens: 10, output_tokens: 5 } }, parent_tool_use_id: null, session_id: sid, uuid: '{{UUID}}' },
    { type: 'result', subtype: 'error_max_turns', is_error: true, duration_ms: 900, num_turns: 2, terminal_reason: 'max_turns', errors: ['Reached maximum number of turns (1)'], session_id: sid, total_cost_usd: 0.01, usage: { input_tokens: 10, output_tokens: 5 }, uuid: '{{UUID}}' },
  ];
}

describe('agent tools, limits and MCP servers in the browser', { timeout: 300_000 }, () => {
  let tmp;
  let server;
  let browser;
  let sid;
  let wid;

  before(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'agentdesk-tools-e2e-'));
    server = await startWithFakeClaude(tmp, limitTurn());
    browser = await launchBrowser();
    if (shots !== '') await mkdir(shots, { recursive: true });
    const s = await api(server, 'POST', '/api/sessions', { cwd: tmp, title: 'Tools demo' });
    sid = s.id;
    wid = s.workers.find((w) => w.kind === 'sdk').id;
  });

  after(async () => {
    await browser?.close();
    try {
      await server?.dispose();
    } finally {
      if (tmp) await rm(tmp, { recursive: true, force: true });
    }
  });

  const tools = async () => (await api(server, 'GET', `/api/sessions/${sid}/tools`)).tools.map((t) => `${t.name}@${t.provider}`).join(',');

  async function waitTools(want) {
    const deadline = Date.now() + waitMs;
    let got = '';
    while (Date.now() < deadline) {
      got = await tools();
      if (want(got)) return got;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.fail(`tools never matched: ${got}`);
  }

  async function open(options) {
    const page = await newPage(browser, options);
    await signIn(page, server, `/s/${sid}/w/${wid}`);
    await page.locator('.pane-chat:not([hidden]) .chat-input').waitFor({ timeout: waitMs });
    return page;
  }

  test('the tab serves ask_user and show for the session it shows, and a page of the same origin adds a tool', async () => {
    const page = await open(desktop);
    await waitTools((t) => t.includes('ask_user@agentdesk') && t.includes('show@agentdesk') && t.includes('notify@agentdesk'));
    const registered = await page.evaluate(async (sid) => {
      const url = '/tools-client.js';
      const { connectTools, text } = await import(url);
      const t = connectTools({ provider: 'Grid page' });
      t.register(sid, [{ name: 'grid_rows', description: 'Rows of the open grid.', handler: () => text('3 rows') }]);
      await t.ready;
      return true;
    }, sid);
    assert.equal(registered, true);
    await waitTools((t) => t.includes('grid_rows@Grid page'));
    await page.close();
    await waitTools((t) => !t.includes('grid_rows') && !t.includes('ask_user'));
  });

  test('a turn cut by the turn limit shows as a limit, and Continue sends a message', async () => {
    const page = await open(desktop);
    const pane = page.locator('.pane-chat:not([hidden])');
    await pane.locator('.chat-input').fill('do the work');
    await pane.locator('.chat-input').press('Enter');
    const card = pane.locator('.chat-limit[data-limit="turns"]');
    await card.waitFor({ timeout: waitMs });
    assert.match(await card.textContent(), /Turn limit reached/);
    assert.match(await card.textContent(), /Reached maximum number of turns \(1\)/);
    assert.equal(await pane.locator('.chat-result[data-outcome="error"]').count(), 0, 'the limit is shown as an error');
    if (shots !== '') await page.screenshot({ path: path.join(shots, 'limit-desktop.png') });
    await card.getByRole('button', { name: 'Continue' }).click();
    await pane.locator('.chat-user', { hasText: 'Continue.' }).waitFor({ timeout: waitMs });
    await page.close();
  });

  for (const [size, options] of [['desktop', desktop], ['phone', phone]]) {
    test(`the limits and MCP panels (${size})`, async () => {
      const page = await open(options);
      const pane = page.locator('.pane-chat:not([hidden])');
      await pane.locator('.agent-btn').click();
      const dialog = page.locator('dialog.agent-dialog');
      await dialog.waitFor();
      const limits = dialog.locator('.limits-form');
      // The terminal view's CLI ignores these two (docs/api-extensions.md).
      for (const name of ['maxTurns', 'maxBudgetUsd']) {
        const hint = limits.locator('.limits-row', { has: limits.page().locator(`[name="${name}"]`) }).locator('.limits-hint');
        assert.match(await hint.innerText(), /Chat only: the terminal view/);
      }
      await limits.locator('[name="addDirs"]').fill('relative/dir');
      await limits.getByRole('button', { name: 'Save limits' }).click();
      await limits.locator('.form-error', { hasText: 'addDirs' }).waitFor({ timeout: waitMs });
      await limits.locator('[name="addDirs"]').fill('');
      const turns = size === 'phone' ? 4 : 3;
      await limits.locator('[name="maxTurns"]').fill(String(turns));
      await limits.locator('[name="maxBudgetUsd"]').fill('2.5');
      await limits.locator('[name="appendSystemPrompt"]').fill('Answer briefly.');
      await limits.getByRole('button', { name: 'Save limits' }).click();
      await limits.locator('.limits-saved', { hasText: 'Saved' }).waitFor({ timeout: waitMs });
      const w = await api(server, 'GET', `/api/sessions/${sid}/workers/${wid}`);
      assert.equal(w.maxTurns, turns);
      assert.equal(w.maxBudgetUsd, 2.5);
      assert.equal(w.appendSystemPrompt, 'Answer briefly.');

      const mcp = dialog.locator('.mcp-panel');
      const name = `gh-${size}`;
      const add = mcp.locator('form.mcp-add');
      await add.locator('[name="name"]').fill(name);
      await add.locator('[name="command"]').fill('npx');
      await add.locator('[name="args"]').fill('-y\ngh-mcp');
      await add.locator('[name="env"]').fill(`GITHUB_TOKEN=${secret}`);
      await add.getByRole('button', { name: 'Add server' }).click();
      const row = mcp.locator(`.mcp-row[data-name="${name}"]`);
      await row.waitFor({ timeout: waitMs });
      assert.equal(await page.evaluate((s) => document.body.innerHTML.includes(s), secret), false, 'the secret is shown');
      assert.deepEqual(await overflow(page), []);
      if (shots !== '') await page.screenshot({ path: path.join(shots, `agent-dialog-${size}.png`), fullPage: true });
      await row.getByRole('switch').uncheck();
      await row.locator('.mcp-status', { hasText: 'off' }).waitFor({ timeout: waitMs });
      const listed = await api(server, 'GET', `/api/sessions/${sid}/mcp-servers`);
      const srv = listed.servers.find((s) => s.name === name);
      assert.equal(srv.enabled, false);
      assert.equal(srv.env.GITHUB_TOKEN, '********');
      await row.getByRole('button', { name: `Remove ${name}` }).click();
      await page.locator('dialog.app-dialog:not(.agent-dialog)').getByRole('button', { name: 'Remove' }).click();
      await row.waitFor({ state: 'detached', timeout: waitMs });
      await dialog.getByRole('button', { name: 'Close' }).click();
      await dialog.waitFor({ state: 'detached' });
      await page.close();
    });
  }
});
