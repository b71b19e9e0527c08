// Browser tests of the chat on a phone (issue 22, item 17), against the
// desktop: the model and the mode read in whole (short) words, never cut to
// "h…" or "Ask befor…"; the conversation gets most of the screen (no
// notifications banner inside a session, one row of session heading, no
// Copy button under every message: a tap on a message shows it).
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { desktop, launchBrowser, newPage, phone } from './browser.mjs';
import { api, chatTurnLines, coveredControls, overflow, signIn, startWithFakeClaude } from './ux.mjs';

const chat = '.pane-chat:not([hidden])';

describe('the chat on a phone', { timeout: 300_000 }, () => {
  let tmp;
  let server;
  let browser;
  let s;
  let w;

  before(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'agentdesk-ux-phone-chat-'));
    server = await startWithFakeClaude(tmp, chatTurnLines());
    browser = await launchBrowser();
    s = await api(server, 'POST', '/api/sessions', { cwd: await server.tempDir(), title: 'a session with a title too long for a phone screen', model: 'haiku' });
    w = s.workers[0];
    await api(server, 'POST', `/api/sessions/${s.id}/workers/${w.id}/input`, { content: 'Please **fix** the `login` flow' });
  });

  after(async () => {
    await browser?.close();
    await server?.dispose();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  /** A page whose browser has not been asked about notifications yet (the banner may show). */
  async function open(opts) {
    const p = await newPage(browser, { ...opts, permissions: ['clipboard-read', 'clipboard-write'] });
    await p.addInitScript(() => {
      Object.defineProperty(window, 'Notification', { configurable: true, value: class {
        static permission = 'default';
        static requestPermission() { return Promise.resolve('default'); }
      } });
    });
    await signIn(p, server);
    return p;
  }

  /** The chips' shown text and whether it is cut (ellipsis). */
  const chips = (p) => p.locator(`${chat} .chat-settings .btn-small:visible`).evaluateAll((els) =>
    els.map((e) => ({ text: e.innerText.trim(), cut: e.scrollWidth > e.clientWidth + 1 })));

  test('phone: readable chips, the conversation has the room, Copy on a tap', async () => {
    const p = await open(phone);
    await p.locator('.notify-banner:not([hidden])').waitFor(); // the start page asks
    await p.goto(`${server.url}/s/${s.id}/w/${w.id}`);
    await p.locator(`${chat} .chat-result`).waitFor();
    assert.equal(await p.locator('.notify-banner').isVisible(), false, 'no banner inside a session');
    assert.deepEqual(await chips(p), [{ text: 'Haiku ▾', cut: false }, { text: 'Ask ▾', cut: false }]);
    const room = await p.locator(`${chat} .chat-scroll`).evaluate((el) => el.getBoundingClientRect().height);
    assert.ok(room >= 0.58 * 844, `the conversation is ${Math.round(room)} px of 844`);
    // No Copy under the messages until one is tapped.
    const text = p.locator(`${chat} .chat-text`).last();
    await p.locator(`${chat} .code-wrap .copy-btn`).first().waitFor(); // the buttons were added
    assert.equal(await p.locator(`${chat} .msg-tools .copy-btn:visible`).count(), 0);
    await text.tap();
    const copy = text.locator('.msg-tools .copy-btn');
    await copy.waitFor();
    await copy.tap();
    assert.match(await p.evaluate(() => navigator.clipboard.readText()), /^Done\. Summary:/);
    await p.locator(`${chat} .chat-user`).tap(); // another message: the first one's tools go
    assert.equal(await text.locator('.msg-tools .copy-btn').isVisible(), false);
    assert.deepEqual(await overflow(p), []);
    assert.deepEqual((await coveredControls(p, chat)).covered, []);
    assert.deepEqual(p.errors, []);
    await p.context().close();
  });

  test('desktop: the chips keep their whole words, Copy shows under messages', async () => {
    const p = await open(desktop);
    await p.goto(`${server.url}/s/${s.id}/w/${w.id}`);
    await p.locator(`${chat} .chat-result`).waitFor();
    assert.deepEqual(await chips(p), [{ text: 'Haiku ▾', cut: false }, { text: 'Ask before edits ▾', cut: false }]);
    await p.locator(`${chat} .msg-tools .copy-btn`).first().waitFor();
    assert.equal(await p.locator(`${chat} .chat-export`).innerText(), 'Export');
    assert.deepEqual(p.errors, []);
    await p.context().close();
  });
});
