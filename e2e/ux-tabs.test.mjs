// Browser tests of the tab bar's words (issue 22, item 12), at phone and
// desktop size: switching the conversation between chat and terminal again
// and again leaves one "Chat" tab (not "sdk 2", "sdk 3"); a terminal view
// of Claude that ended by itself folds into History once the chat takes
// over; tabs read Chat, Terminal, Shell, Diff, never the API's kind names
// or a "running" that every live tab would show.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { desktop, launchBrowser, newPage, phone } from './browser.mjs';
import { api, makeRepo, overflow, signIn, startWithFakeClaude } from './ux.mjs';

const apiWords = /\b(sdk|pty-agent|git-diff|term)\b|running/;

describe('tab labels', { timeout: 300_000 }, () => {
  let tmp;
  let server;
  let browser;
  let repo;

  before(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'agentdesk-ux-tabs-'));
    server = await startWithFakeClaude(tmp);
    browser = await launchBrowser();
    repo = await makeRepo(tmp, 'proj');
  });

  after(async () => {
    await browser?.close();
    await server?.dispose();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  /** The visible tabs' texts (name, kind hint, badge), in order. */
  const tabTexts = (p) => p.locator('.tab .tab-main').evaluateAll((els) => els.map((e) =>
    [...e.children].filter((c) => !c.hidden).map((c) => c.textContent.trim()).filter((t) => t !== '').join(' ')));

  for (const [size, opts] of [['phone', phone], ['desktop', desktop]]) {
    test(`${size}: switching back and forth keeps one Chat tab; tabs read Chat, Shell, Diff`, async () => {
      const s = await api(server, 'POST', '/api/sessions', { cwd: repo, title: `tabs ${size}` });
      let chat = s.workers.find((w) => w.kind === 'sdk');
      // Four switches: chat → terminal → chat → terminal → chat.
      for (const to of ['pty-agent', 'sdk', 'pty-agent', 'sdk']) {
        chat = (await api(server, 'POST', `/api/sessions/${s.id}/switch`, { to, force: true })).worker;
      }
      await api(server, 'POST', `/api/sessions/${s.id}/workers`, { kind: 'terminal' });
      await api(server, 'POST', `/api/sessions/${s.id}/workers`, { kind: 'terminal', name: 'terminal 3' }); // a name older servers gave
      const p = await newPage(browser, opts);
      await signIn(p, server, `/s/${s.id}/w/${chat.id}`);
      await p.locator('.pane-chat:not([hidden]) .chat-conn[data-state="open"]').waitFor();
      await p.locator('.tab[data-kind="terminal"]').nth(1).waitFor();
      await p.locator('.history-btn', { hasText: 'History (4)' }).waitFor();
      const texts = await tabTexts(p);
      assert.equal(texts.filter((t) => t.startsWith('Chat')).length, 1, `one chat tab: ${JSON.stringify(texts)}`);
      for (const t of texts) assert.doesNotMatch(t, apiWords, `tab "${t}" reads as a person would say it`);
      assert.deepEqual(texts.map((t) => t.replace(/ (idle|starting|active)$/, '')), ['Chat', 'Diff', 'Shell', 'Shell 3'], 'the chat stays where it was, first');
      assert.equal(await p.locator('.tab.selected .tab-name').innerText(), 'Chat');
      // History names the earlier views in words too.
      await p.locator('.history-btn').click();
      const items = await p.locator('.history-item').allInnerTexts();
      assert.equal(items.length, 4);
      for (const it of items) assert.match(it, /^(Chat|Terminal) · /, `history item "${it}"`);
      await p.keyboard.press('Escape');
      assert.deepEqual(await overflow(p), []);
      assert.deepEqual(p.errors, []);
      await p.context().close();
    });
  }

  test('phone: a terminal view that ended by itself folds into History once the chat takes over', async () => {
    const s = await api(server, 'POST', '/api/sessions', { cwd: await server.tempDir(), title: 'dead terminal' });
    const p = await newPage(browser, phone);
    await signIn(p, server, `/s/${s.id}`);
    await p.locator('.pane-chat:not([hidden]) .chat-conn[data-state="open"]').waitFor();
    await p.getByRole('button', { name: 'Open in terminal' }).click();
    const term = p.locator('.tab.selected[data-kind="pty-agent"]');
    await term.waitFor();
    assert.equal(await term.locator('.tab-name').innerText(), 'Terminal');
    const termId = await term.getAttribute('data-wid');
    await p.locator('.pane-terminal:not([hidden]) .term-status[data-state="open"]').waitFor();
    // The fake CLI ends at the end of its input, as the TUI ends at /exit.
    await p.locator('.pane-terminal:not([hidden]) .xterm-helper-textarea').focus();
    await p.keyboard.press('Control+D');
    await p.locator(`.tab[data-wid="${termId}"] .badge`, { hasText: /^exited/ }).waitFor();
    await p.getByRole('button', { name: 'Back to chat' }).click();
    await p.locator('.tab.selected[data-kind="sdk"]').waitFor();
    await p.locator(`.tab[data-wid="${termId}"]`).waitFor({ state: 'detached' });
    await p.locator('.history-btn', { hasText: 'History (2)' }).waitFor();
    const texts = await tabTexts(p);
    assert.equal(texts.length, 1, `only the chat is a tab: ${JSON.stringify(texts)}`);
    assert.match(texts[0], /^Chat\b/);
    assert.deepEqual(p.errors, []);
    await p.context().close();
  });
});
