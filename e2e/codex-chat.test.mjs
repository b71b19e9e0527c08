// Browser end-to-end of a Codex chat: the real, pinned Codex CLI
// (node_modules/.bin/codex) against the fake Responses API
// (internal/testkit/fakeopenai) on loopback, in a CODEX_HOME inside the
// server's temp HOME. A person starts a Codex chat from the new-session form
// and picks Codex's "Ask for commands" policy in the mode menu (on the phone
// the session comes from the API), sends a message and reads the answer, allows
// a command from the permission card (it runs in the session's folder),
// denies the next one (it does not), and a reload shows the same
// conversation with nothing twice; at desktop and phone size.
import assert from 'node:assert/strict';
import { access, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { desktop, launchBrowser, newPage, phone } from './browser.mjs';
import { codexBin, codexServerOptions, startFakeOpenAI } from './fakeopenai.mjs';
import { AgentdeskServer } from './server.mjs';
import { api } from './ux.mjs';

/** Every wait in this file is bounded by this. */
const waitMs = 30_000;

describe('a Codex chat with the real Codex CLI', { timeout: 300_000 }, () => {
  let tmp;
  let fake;
  let server;
  let browser;

  before(async () => {
    await access(codexBin); // fails loudly when node_modules is not installed
    tmp = await mkdtemp(path.join(os.tmpdir(), 'agentdesk-codex-e2e-'));
    fake = await startFakeOpenAI(tmp);
    server = await AgentdeskServer.start(codexServerOptions(fake.url));
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    try {
      if (process.env.CHAT_E2E_LOG) console.log(`${server?.output ?? ''}\n${fake?.log() ?? ''}`);
      await server?.dispose();
    } finally {
      await fake?.stop();
      if (tmp) await rm(tmp, { recursive: true, force: true });
    }
  });

  const pane = (p) => p.locator('.pane-chat:not([hidden])');

  async function send(p, text) {
    const input = pane(p).locator('.chat-input');
    await input.waitFor({ state: 'visible', timeout: waitMs });
    await p.waitForFunction((el) => !el.disabled, await input.elementHandle(), { timeout: waitMs });
    await input.fill(text);
    // A touch screen's Enter makes a new line: the Send button sends.
    await pane(p).locator('.chat-send').click();
    await pane(p).locator('.chat-user', { hasText: text }).last().waitFor({ timeout: waitMs });
  }

  async function waitResults(p, n) {
    try {
      await p.waitForFunction((n) => document.querySelectorAll('.pane-chat:not([hidden]) .chat-result').length >= n,
        n, { timeout: waitMs });
    } catch (err) {
      throw new Error(`expected ${n} finished turns; pane shows:\n${await pane(p).innerText()}\n\nserver:\n${server.output}\n(${err.message})`);
    }
  }

  const uuids = (p) => pane(p).locator('[data-uuid]').evaluateAll((els) => els.map((e) => e.dataset.uuid));

  /** A Codex chat made with the new-session form, its mode chosen in the mode menu. */
  async function fromForm(page, cwd) {
    await page.goto(`${server.url}/?token=${server.token}`);
    await page.locator('.conn[data-state="open"]').waitFor({ timeout: waitMs });
    await page.keyboard.press('Alt+N');
    await page.locator('#ns-cwd').fill(cwd);
    await page.locator('#ns-title').fill('Codex desktop');
    await page.locator('#ns-agent').selectOption({ label: 'Codex (chat)' });
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/\/s\/[^/]+/, { timeout: waitMs });
    await pane(page).locator('.chat-conn[data-state="open"]').waitFor({ timeout: waitMs });
    assert.equal(await pane(page).locator('.chat-bar-title').innerText(), 'Codex (chat)');
    await pane(page).locator('.set-mode').click();
    const items = await page.locator('.menu-item[data-value]').evaluateAll((els) => els.map((e) => e.dataset.value));
    assert.deepEqual(items, ['untrusted', 'on-request', 'never'], "the menu offers Codex's approval policies");
    await page.locator('.menu-item[data-value="untrusted"]').click();
    await page.locator('.set-mode[data-mode="untrusted"][data-chosen="true"]').waitFor({ timeout: waitMs });
  }

  /** A Codex chat made with the API, asking before commands. */
  async function fromAPI(page, cwd) {
    const s = await api(server, 'POST', '/api/sessions', { cwd, title: 'Codex phone', agent: 'codex', permissionMode: 'untrusted' });
    assert.equal(s.workers[0].agent, 'codex');
    await page.goto(`${server.url}/s/${s.id}?token=${server.token}`);
    await pane(page).locator('.chat-conn[data-state="open"]').waitFor({ timeout: waitMs });
  }

  for (const [size, options, open] of [['desktop', desktop, fromForm], ['phone', phone, fromAPI]]) {
    test(`a turn, an allowed and a denied command, a reload (${size})`, async () => {
      const cwd = await mkdtemp(path.join(tmp, `work-${size}-`));
      const page = await newPage(browser, options);
      await open(page, cwd);

      await send(page, 'hello codex');
      await pane(page).locator('.chat-text', { hasText: 'Echo: hello codex' }).waitFor({ timeout: waitMs });
      await waitResults(page, 1);

      await send(page, 'bash: echo hi > allowed.txt');
      const card = pane(page).locator('.chat-perm');
      await card.waitFor({ timeout: waitMs });
      assert.match(await card.innerText(), /Codex wants to use Bash[\s\S]*allowed\.txt/);
      assert.equal(await pane(page).getAttribute('data-activity'), 'asking');
      await card.getByRole('button', { name: 'Allow', exact: true }).click();
      await card.waitFor({ state: 'detached', timeout: waitMs });
      await pane(page).locator('.chat-tool[data-tool="Bash"][data-state="ok"]').first().waitFor({ timeout: waitMs });
      await waitResults(page, 2);
      await access(path.join(cwd, 'allowed.txt')); // the command ran in the session's folder

      await send(page, 'bash: echo no > denied.txt');
      await card.waitFor({ timeout: waitMs });
      await card.getByRole('button', { name: 'Deny', exact: true }).click();
      await card.waitFor({ state: 'detached', timeout: waitMs });
      await waitResults(page, 3);
      await assert.rejects(access(path.join(cwd, 'denied.txt')), 'the denied command did not run');

      const before = await uuids(page);
      assert.equal(new Set(before).size, before.length, 'no uuid twice');
      await page.reload();
      await pane(page).locator('.chat-conn[data-state="open"]').waitFor({ timeout: waitMs });
      await waitResults(page, 3);
      assert.deepEqual(await uuids(page), before, 'the same messages in the same order after a reload');
      assert.deepEqual(page.errors, [], 'no console errors');
      await page.context().close();
    });
  }

  test('a tool of the bridge asks first, naming its provider; allowed it runs, denied it does not', async () => {
    const cwd = await mkdtemp(path.join(tmp, 'work-tools-'));
    const page = await newPage(browser, desktop);
    const s = await api(server, 'POST', '/api/sessions', { cwd, title: 'Codex tools', agent: 'codex', permissionMode: 'on-request' });
    await page.goto(`${server.url}/s/${s.id}?token=${server.token}`);
    await pane(page).locator('.chat-conn[data-state="open"]').waitFor({ timeout: waitMs });

    const card = pane(page).locator('.chat-perm');
    await send(page, 'tool:notify {"message":"the build is done"}');
    await card.waitFor({ timeout: waitMs });
    assert.match(await card.innerText(), /Codex wants to use mcp__agentdesk__notify[\s\S]*Provided by agentdesk\./);
    assert.equal(await pane(page).getAttribute('data-activity'), 'asking');
    if (process.env.SHOTS_DIR) await page.screenshot({ path: path.join(process.env.SHOTS_DIR, 'codex-tool-card.png') });
    await card.getByRole('button', { name: 'Allow', exact: true }).click();
    await card.waitFor({ state: 'detached', timeout: waitMs });
    await waitResults(page, 1);

    await send(page, 'tool:notify {"message":"again"}');
    await card.waitFor({ timeout: waitMs });
    await card.getByRole('button', { name: 'Deny', exact: true }).click();
    await card.waitFor({ state: 'detached', timeout: waitMs });
    await waitResults(page, 2);
    await pane(page).locator('.chat-tool', { hasText: 'did not run' }).first().waitFor({ timeout: waitMs });
    assert.deepEqual(page.errors, [], 'no console errors');
    await page.context().close();
  });
});
