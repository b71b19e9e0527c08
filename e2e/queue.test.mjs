// Browser end-to-end for the chat's durable queue, with the real Claude CLI
// against the fake Messages API: while a slow turn runs, Send queues (the
// button says "Queue"), the queued messages show above the composer, one is
// edited in place, one moved up, one removed; Steer now sends into the
// running turn; a second tab and a reload show the same queue; the phone
// layout fits with touch-sized controls; when the turn ends (Cancel) the
// queue is delivered one message per turn, in order.
// Screenshots of the queue (1280x800 and 390x844, light and dark) go to
// $QUEUE_SHOTS when it is set.
import assert from 'node:assert/strict';
import { access, mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { desktop, launchBrowser, newPage, phone, waitMs } from './browser.mjs';
import { claudeBin, claudeServerOptions, startFakeApi } from './fakeapi.mjs';
import { AgentdeskServer } from './server.mjs';
import { api, overflow, signIn, smallTargets } from './ux.mjs';

describe('the chat queue', { timeout: 600_000 }, () => {
  let tmp;
  let fake;
  let server;
  let browser;
  let page;
  let route;

  before(async () => {
    await access(claudeBin);
    tmp = await mkdtemp(path.join(os.tmpdir(), 'agentdesk-queue-e2e-'));
    // 50 chunks 5 s apart: the turn runs until the test cancels it.
    process.env.FAKEAPI_SLOW_DELAY = '5s';
    fake = await startFakeApi(tmp);
    server = await AgentdeskServer.start(claudeServerOptions(fake.url));
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    try {
      if (process.env.QUEUE_E2E_LOG) console.log(`${server?.output ?? ''}\n${fake?.log() ?? ''}`);
      await server?.dispose();
    } finally {
      await fake?.stop();
      if (tmp) await rm(tmp, { recursive: true, force: true });
    }
  });

  const pane = (p = page) => p.locator('.pane-chat:not([hidden])');
  const queued = (p = page) => pane(p).locator('.chat-queue-item .chat-queue-text')
    .evaluateAll((els) => els.map((e) => e.textContent));

  async function waitQueue(want, p = page) {
    try {
      await p.waitForFunction((want) => JSON.stringify([...document.querySelectorAll('.pane-chat:not([hidden]) .chat-queue-item .chat-queue-text')]
        .map((e) => e.textContent)) === JSON.stringify(want), want, { timeout: waitMs });
    } catch (err) {
      throw new Error(`queue shows ${JSON.stringify(await queued(p))}, want ${JSON.stringify(want)} (${err.message})`);
    }
  }

  const item = (text) => pane().locator('.chat-queue-item', { has: page.locator('.chat-queue-text', { hasText: text }) });

  test('Send queues while a turn runs; items are edited, moved and removed', async () => {
    page = await newPage(browser, desktop);
    await signIn(page, server);
    const cwd = await mkdtemp(path.join(tmp, 'work-'));
    const s = await api(server, 'POST', '/api/sessions', { cwd, title: 'queue e2e' });
    route = `/s/${s.id}`;
    await page.goto(server.url + route);
    await pane().locator('.chat-conn[data-state="open"]').waitFor();

    const input = pane().locator('.chat-input');
    await input.fill('slow please');
    await input.press('Enter');
    await page.waitForFunction(() => document.querySelector('.pane-chat:not([hidden])')?.dataset.activity === 'active');
    const sendBtn = pane().locator('.chat-send');
    assert.equal((await sendBtn.innerText()).trim(), 'Queue', 'Send says it queues while the turn runs');
    assert.ok(await pane().locator('.chat-steer').isVisible(), 'Steer now is offered');

    for (const text of ['first', 'second', 'third']) {
      await input.fill(text);
      await input.press('Enter');
    }
    await waitQueue(['first', 'second', 'third']);
    assert.equal(await pane().locator('.chat-user', { hasText: /^(first|second|third)$/ }).count(), 0, 'queued messages are not sent');

    // Edit in place: Enter saves.
    await item('second').getByRole('button', { name: 'Edit' }).click();
    const editor = pane().locator('.chat-queue-editor');
    await editor.fill('second, edited');
    await editor.press('Enter');
    await waitQueue(['first', 'second, edited', 'third']);
    // Move up, by keyboard: the focus stays on the moved item's button.
    await item('third').getByRole('button', { name: 'Move up' }).focus();
    await page.keyboard.press('Enter');
    await waitQueue(['first', 'third', 'second, edited']);
    assert.equal(await page.evaluate(() => document.activeElement?.closest('li')?.textContent?.includes('third')), true,
      'the focus follows the moved item');
    await item('first').getByRole('button', { name: 'Remove from the queue' }).click();
    await waitQueue(['third', 'second, edited']);

    // Steer now sends into the running turn at once; the queue stays.
    await input.fill('steer me');
    await pane().locator('.chat-steer').click();
    await pane().locator('.chat-user', { hasText: 'steer me' }).waitFor();
    await waitQueue(['third', 'second, edited']);

    // A second tab and a reload show the same queue.
    const other = await newPage(browser, desktop);
    await signIn(other, server, route);
    await waitQueue(['third', 'second, edited'], other);
    await page.reload();
    await waitQueue(['third', 'second, edited']);
    await other.context().close();
  });

  test('the queue fits a phone and shows in light and dark', async () => {
    const dir = process.env.QUEUE_SHOTS;
    if (dir) await mkdir(dir, { recursive: true });
    for (const [name, opts] of [['desktop', desktop], ['phone', phone]]) {
      for (const scheme of ['light', 'dark']) {
        const p = await newPage(browser, { ...opts, colorScheme: scheme });
        await signIn(p, server, route);
        await waitQueue(['third', 'second, edited'], p);
        if (name === 'phone') {
          assert.deepEqual(await overflow(p), [], 'nothing sticks out on a phone');
          assert.deepEqual(await smallTargets(p).then((l) => l.filter((s) => /Move|Edit|Remove|Queue|Steer/.test(s))), [],
            'queue controls are touch-sized');
        }
        if (dir) await p.screenshot({ path: path.join(dir, `queue-${name}-${scheme}.png`) });
        assert.deepEqual(p.errors.filter((e) => !/WebSocket/.test(e)), []);
        await p.context().close();
      }
    }
  });

  test('the queue is delivered in order, one turn each, when the turn ends', async () => {
    await pane().locator('.chat-cancel').click();
    await pane().locator('.chat-text', { hasText: 'Echo: second, edited' }).waitFor();
    const users = await pane().locator('.chat-user').evaluateAll((els) => els.map((e) => e.innerText.replace(/\s*Copy\s*$/, '').trim()));
    assert.deepEqual(users.filter((u) => !/Request interrupted/.test(u)), ['slow please', 'steer me', 'third', 'second, edited']);
    await pane().locator('.chat-queue').waitFor({ state: 'hidden' });
    const left = await api(server, 'GET', `/api/sessions/${route.slice(3)}/workers/${await pane().getAttribute('data-worker-id')}/queue`);
    assert.deepEqual(left, { items: [] });
    assert.deepEqual(page.errors.filter((e) => !/WebSocket/.test(e)), []);
  });
});
