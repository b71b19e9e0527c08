// Browser test of "Ask the agent to write it" (issue 22, item 19), at phone
// and desktop size: the agent's answer lands in the commit box, editable,
// without copying it from the chat: the fenced message of the reply (its
// result text, not rendered HTML); a message the person typed meanwhile is
// kept and the agent's is offered.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { desktop, launchBrowser, newPage, phone } from './browser.mjs';
import { api, git, makeRepo, overflow, signIn, startWithFakeClaude } from './ux.mjs';

const reply = 'Here is a message for the staged change:\n\n```\nFix the login check\n\nThe check ran after the redirect.\n```';

/** The agent's turn: it answers with the message in a code block. */
function replyTurn() {
  const sid = '{{SESSION_ID}}';
  return [
    { type: 'system', subtype: 'init', cwd: '{{CWD}}', session_id: sid, tools: ['Bash'], model: 'claude-fake', permissionMode: 'default', uuid: '{{UUID}}' },
    { type: 'assistant', message: { id: 'msg_c', type: 'message', role: 'assistant', model: 'claude-fake', content: [{ type: 'text', text: reply }], stop_reason: null, usage: { input_tokens: 5, output_tokens: 9 } }, parent_tool_use_id: null, session_id: sid, uuid: '{{UUID}}' },
    { type: 'result', subtype: 'success', is_error: false, duration_ms: 20, num_turns: 1, result: reply, session_id: sid, total_cost_usd: 0.001, usage: { input_tokens: 5, output_tokens: 9 }, uuid: '{{UUID}}' },
  ];
}

describe('the agent writes the commit message', { timeout: 300_000 }, () => {
  let tmp;
  let server;
  let browser;

  before(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'agentdesk-commit-ask-'));
    server = await startWithFakeClaude(tmp, replyTurn());
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await server?.dispose();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  /** A session on a repository with one staged change; its diff's Stage & commit open. */
  async function openPanel(opts, name) {
    const repo = await makeRepo(tmp, name);
    await writeFile(path.join(repo, 'main.go'), 'package main\n\nfunc main() { login() }\n');
    await git(repo, 'config', 'user.name', 'e2e');
    await git(repo, 'config', 'user.email', 'e2e@example.invalid');
    await git(repo, 'add', 'main.go');
    const s = await api(server, 'POST', '/api/sessions', { cwd: repo, title: name });
    const page = await newPage(browser, opts);
    await signIn(page, server, `/s/${s.id}`);
    await page.locator('.tab[data-kind="git-diff"] .tab-main').click();
    const pane = page.locator('.pane-diff:not([hidden])');
    const fold = pane.locator('.dd-fold');
    if (await fold.isVisible()) await fold.click();
    await pane.locator('.gp-toggle').click();
    await pane.locator('.gp-file[data-side="staged"][data-path="main.go"]').waitFor();
    return { page, s, panel: pane.locator('.gp') };
  }

  for (const [size, opts] of [['phone', phone], ['desktop', desktop]]) {
    test(`${size}: the agent's message lands in the commit box, editable`, async () => {
      const { page, s, panel } = await openPanel(opts, `ask-${size}`);
      const box = panel.getByRole('textbox', { name: 'Commit message' });
      await panel.getByRole('button', { name: 'Ask the agent to write it' }).click();
      await page.waitForFunction(() => document.querySelector('.pane-diff:not([hidden]) .gp-msg')?.value !== '');
      assert.equal(await box.inputValue(), 'Fix the login check\n\nThe check ran after the redirect.');
      assert.match(await panel.locator('.gp-note').innerText(), /in the box/);
      assert.equal(await box.isEditable(), true);
      await box.press('End');
      await box.type(' (edited)');
      await panel.getByRole('button', { name: 'Commit', exact: true }).click();
      await panel.locator('.gp-file[data-side="staged"]').first().waitFor({ state: 'detached' });
      assert.equal(await git(s.cwd, 'log', '-1', '--format=%B'), 'Fix the login check\n\nThe check ran after the redirect. (edited)');
      assert.deepEqual(await overflow(page), []);
      assert.deepEqual(page.errors, []);
      await page.context().close();
    });
  }

  test('desktop: a message typed meanwhile is kept; the agent\'s is offered', async () => {
    const { page, panel } = await openPanel(desktop, 'ask-typed');
    const box = panel.getByRole('textbox', { name: 'Commit message' });
    // The answer waits until the person has typed: the socket frames are held back.
    let release;
    const held = new Promise((r) => (release = r));
    await page.routeWebSocket(/\/ws\/sessions\/.*\/workers\//, async (ws) => {
      const srv = ws.connectToServer();
      srv.onMessage(async (m) => {
        if (typeof m === 'string' && m.includes('"result"')) await held;
        ws.send(m);
      });
      ws.onMessage((m) => srv.send(m));
    });
    await panel.getByRole('button', { name: 'Ask the agent to write it' }).click();
    await panel.locator('.gp-note', { hasText: /writing|Asked/ }).waitFor();
    await box.fill('My own message');
    release();
    await panel.getByRole('button', { name: 'Use it' }).waitFor();
    assert.equal(await box.inputValue(), 'My own message');
    await panel.getByRole('button', { name: 'Use it' }).click();
    assert.equal(await box.inputValue(), 'Fix the login check\n\nThe check ran after the redirect.');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});
