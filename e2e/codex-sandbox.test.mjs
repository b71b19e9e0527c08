// Browser end-to-end of a Codex chat in a sandboxed session: the real, pinned
// Codex CLI (node_modules/.bin/codex) against the fake Responses API
// (internal/testkit/fakeopenai) on loopback, with real bubblewrap. A person
// creates the session from the new-session form with the agent Codex, the
// sandbox "workspace" and "work without asking" ticked (Codex's policy never),
// sees the badge and, in its panel, the API reached at its own address; a
// turn runs a command without a question, in the box: it writes the
// session's folder, sees loopback only and the box's CODEX_HOME; a reload
// shows the same chat. Codex's threads land in the box's home, not the
// user's CODEX_HOME.
import assert from 'node:assert/strict';
import { access, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { desktop, launchBrowser, newPage } from './browser.mjs';
import { codexBin, codexServerOptions, startFakeOpenAI } from './fakeopenai.mjs';
import { sandboxSkip } from './sandbox-tools.mjs';
import { AgentdeskServer } from './server.mjs';

const waitMs = 60_000;

describe('a Codex chat in a sandboxed session', { timeout: 300_000, skip: sandboxSkip('the Codex sandbox browser test') }, () => {
  let tmp;
  let fake;
  let server;
  let browser;

  before(async () => {
    await access(codexBin);
    tmp = await mkdtemp(path.join(os.tmpdir(), 'agentdesk-codexbox-e2e-'));
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

  test('create it from the form, see the box, run a command in it without a question', async () => {
    const page = await newPage(browser, desktop);
    const cwd = await mkdtemp(path.join(tmp, 'work-'));
    await page.goto(`${server.url}/?token=${server.token}`);
    await page.locator('.conn[data-state="open"]').waitFor({ timeout: waitMs });
    await page.keyboard.press('Alt+N');
    await page.locator('#ns-cwd').fill(cwd);
    await page.locator('#ns-title').fill('Codex in a box');
    await page.locator('#ns-agent').selectOption({ label: 'Codex (chat)' });
    await page.waitForFunction(() => !document.querySelector('#ns-sandbox option[value="workspace"]')?.disabled);
    await page.locator('#ns-sandbox').selectOption('workspace');
    await page.locator('#ns-bypass').check();
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/\/s\/[^/]+/, { timeout: waitMs });
    const sid = new URL(page.url()).pathname.split('/')[2];

    const badge = page.locator('.sandbox-badge');
    await badge.waitFor({ timeout: waitMs });
    await badge.click();
    const panel = page.locator('.sandbox-panel');
    await panel.waitFor();
    const text = await panel.innerText();
    assert.match(text, /Sandbox: workspace/);
    assert.ok(text.includes(`${fake.url}/v1 (through agentdesk's bridge, at the same address in the box)`), `the panel lists Codex's API:\n${text}`);
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'hidden' });
    await pane(page).locator('.set-mode[data-mode="never"]').waitFor({ timeout: waitMs });

    const input = pane(page).locator('.chat-input');
    await page.waitForFunction((el) => !el.disabled, await input.elementHandle(), { timeout: waitMs });
    await input.fill(`bash: echo "net=$(tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' ' | tr '\\n' ,) home=$CODEX_HOME" > boxed.txt`);
    await pane(page).locator('.chat-send').click();
    try {
      await pane(page).locator('.chat-tool[data-tool="Bash"][data-state="ok"]').first().waitFor({ timeout: waitMs });
      await page.waitForFunction(() => document.querySelectorAll('.pane-chat:not([hidden]) .chat-result').length >= 1, null, { timeout: waitMs });
    } catch (err) {
      throw new Error(`the turn in the box did not finish: ${err.message}\npane:\n${await pane(page).innerText()}\nserver:\n${server.output}`);
    }
    assert.equal(await pane(page).locator('.chat-perm').count(), 0, 'no question in the box');
    const boxCodex = path.join(server.dataDir, 'sandbox', sid, 'home', '.codex');
    assert.equal((await readFile(path.join(cwd, 'boxed.txt'), 'utf8')).trim(), `net=lo, home=${boxCodex}`);
    await access(path.join(boxCodex, 'sessions'));
    await assert.rejects(readdir(path.join(server.home, '.codex', 'sessions')), "the user's CODEX_HOME got no thread");

    await page.reload();
    await pane(page).locator('.chat-conn[data-state="open"]').waitFor({ timeout: waitMs });
    await pane(page).locator('.chat-tool[data-tool="Bash"][data-state="ok"]').first().waitFor({ timeout: waitMs });
    assert.deepEqual(page.errors, [], 'no console errors');
    await page.context().close();
  });
});
