// Browser end-to-end for a tab open while a long conversation is adopted
// (issue 28): the import's batches come as history-appended notices
// (docs/api-extensions.md), not a frame per message; the tab shows a line
// with the count so far, then reads the newest page once the import's
// marker comes, and reconnects after it. The chat then holds the newest
// page only, each message once, in the stored order, with the newest one
// on screen; the older pages are read as usual. At 1280x800 and 390x844.
// Screenshots (light and dark) go to SHOTS_DIR when it is set.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { lastMarker, writeConversation } from '../bench/conversation.mjs';
import { desktop, launchBrowser, newPage, phone } from './browser.mjs';
import { AgentdeskServer } from './server.mjs';
import { api as rest, overflow, signIn } from './ux.mjs';

/** Long enough that the import outlasts the page's load on any machine this runs on. */
const n = 8000;
const longMs = 180_000;

describe('a tab open while a long conversation is adopted', { timeout: 900_000 }, () => {
  let server;
  let browser;
  let cwd;

  before(async () => {
    server = await AgentdeskServer.start();
    browser = await launchBrowser();
    cwd = await server.tempDir('project-');
  });

  after(async () => {
    await browser?.close();
    await server?.dispose();
  });

  /** Every stored message's uuid, oldest first. */
  async function storedUuids(base) {
    const all = [];
    for (let after = '', more = true; more;) {
      const r = await rest(server, 'GET', `${base}/messages?limit=5000&after=${after}`);
      all.push(...r.messages.map((m) => m.message.uuid));
      more = r.hasMore && r.messages.length > 0;
      if (more) after = all.at(-1);
    }
    return all;
  }

  async function shots(page, name) {
    if (!process.env.SHOTS_DIR) return;
    const size = page.viewportSize();
    for (const scheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: path.join(process.env.SHOTS_DIR, `${name}-${size.width}-${scheme}.png`) });
    }
    await page.emulateMedia({ colorScheme: 'light' });
  }

  /** Waits until the conversation's last message is on screen. */
  function markerOnScreen(page) {
    return page.waitForFunction((marker) => {
      const sc = document.querySelector('.pane-chat:not([hidden]) .chat-scroll');
      for (const el of document.querySelectorAll('.pane-chat:not([hidden]) [data-uuid]')) {
        if (!el.textContent.includes(marker)) continue;
        const r = el.getBoundingClientRect();
        const q = sc.getBoundingClientRect();
        return r.bottom > q.top && r.top < q.bottom;
      }
      return false;
    }, lastMarker(n), { timeout: longMs });
  }

  /** Waits until the newest page (the import's marker on screen) shows; checks it holds each message once, in order. */
  async function newestShown(page, base) {
    await markerOnScreen(page);
    await page.locator('.pane-chat:not([hidden]) .chat-imported').waitFor({ timeout: longMs });
    const stored = await storedUuids(base);
    assert.equal(stored.length, n + 1, 'every message and the marker are stored');
    const dom = await page.locator('.pane-chat:not([hidden]) .chat-log [data-uuid]').evaluateAll((els) => els.map((e) => e.dataset.uuid));
    assert.equal(new Set(dom).size, dom.length, 'no message twice');
    const first = stored.indexOf(dom[0]);
    assert.ok(first > n - 250, `the newest page only: it begins at message ${first}`);
    assert.deepEqual(dom, stored.slice(first).filter((u) => dom.includes(u)), 'in the stored order');
    assert.ok(dom.includes(stored[n - 1]), 'the conversation\'s newest message is shown');
  }

  for (const [size, viewport] of [['desktop', desktop], ['phone', phone]]) {
    // The tab's first page read and its socket are a moment apart; when the
    // import stored many messages in between, the socket's replay says so
    // in one notice instead of sending them (the tab would render them all).
    test(`${size}: a tab that connects far behind the import gets a notice, not the messages`, async () => {
      const csid = randomUUID();
      await writeConversation(path.join(server.home, '.claude'), { n, sid: csid, cwd });
      const page = await newPage(browser, viewport);
      const frames = { sdk: 0, notices: 0, opens: 0 };
      page.on('websocket', (ws) => {
        if (ws.url().includes('/workers/')) frames.opens++;
        ws.on('framereceived', ({ payload }) => {
          if (typeof payload !== 'string') return;
          const f = JSON.parse(payload);
          if (f.type === 'sdk-message') frames.sdk++;
          if (f.type === 'history-appended') frames.notices++;
        });
      });
      await signIn(page, server);
      const s = await rest(server, 'POST', '/api/sessions', { cwd, claudeSessionId: csid, title: `behind ${size}` });
      const w = s.workers.find((x) => x.kind === 'sdk') ?? s.workers[0];
      const base = `/api/sessions/${s.id}/workers/${w.id}`;
      // The tab's first newest-page read is answered only once the import
      // stored 1,000 more messages after it: its cursor is far behind.
      let held = false;
      await page.route((u) => u.pathname === `${base}/messages` && u.searchParams.has('before'), async (route) => {
        if (held) return route.continue();
        held = true;
        const res = await route.fetch();
        const body = await res.json();
        const cursor = body.messages.at(-1)?.message.uuid ?? '';
        for (;;) {
          const r = await rest(server, 'GET', `${base}/messages?limit=1000&after=${cursor}`);
          if (r.messages.length >= 1000) break;
          await new Promise((ok) => setTimeout(ok, 50));
        }
        await route.fulfill({ response: res, json: body });
      });
      await page.goto(`${server.url}/s/${s.id}/w/${w.id}`);
      await newestShown(page, base);
      assert.ok(held, 'the first page read was held');
      assert.ok(frames.notices > 0, 'the gap came as a notice');
      assert.ok(frames.sdk <= 200, `${frames.sdk} sdk-message frames over ${frames.opens} connections, at most a page's worth`);
      assert.deepEqual(page.errors, [], 'no console errors');
      await page.context().close();
    });

    test(`${size}: the tab shows the import's newest page, not its messages one by one`, async () => {
      const csid = randomUUID();
      await writeConversation(path.join(server.home, '.claude'), { n, sid: csid, cwd });
      const page = await newPage(browser, viewport);
      const frames = { sdk: 0, notices: 0, counted: 0 };
      page.on('websocket', (ws) => ws.on('framereceived', ({ payload }) => {
        if (typeof payload !== 'string') return;
        const f = JSON.parse(payload);
        if (f.type === 'sdk-message') frames.sdk++;
        if (f.type === 'history-appended') {
          frames.notices++;
          frames.counted += f.count;
        }
      }));
      await signIn(page, server);
      const s = await rest(server, 'POST', '/api/sessions', { cwd, claudeSessionId: csid, title: `adopt ${size}` });
      const w = s.workers.find((x) => x.kind === 'sdk') ?? s.workers[0];
      await page.goto(`${server.url}/s/${s.id}/w/${w.id}`);
      const importing = page.locator('.pane-chat:not([hidden]) .chat-importing');
      await importing.waitFor({ state: 'visible', timeout: longMs });
      assert.match(await importing.textContent(), /Importing the conversation… [\d,.\s]+ messages so far/);
      await shots(page, 'chat-adopt-importing');
      // A reload during the import: the new page reads what is stored and
      // catches up after it like the first one.
      await page.reload();
      await markerOnScreen(page);
      await page.locator('.pane-chat:not([hidden]) .chat-log[aria-busy="false"]').waitFor({ timeout: longMs });
      assert.ok(await importing.isHidden(), 'the import line goes once the newest page shows');
      assert.ok(frames.notices > 0, 'the import came as notices');
      assert.ok(frames.sdk < n / 2, `${frames.sdk} sdk-message frames for ${n} imported messages (${frames.counted} in ${frames.notices} notices)`);

      const stored = await storedUuids(`/api/sessions/${s.id}/workers/${w.id}`);
      assert.equal(stored.length, n + 1, 'every message and the marker are stored');
      const dom = await page.locator('.pane-chat:not([hidden]) .chat-log [data-uuid]').evaluateAll((els) => els.map((e) => e.dataset.uuid));
      assert.equal(new Set(dom).size, dom.length, 'no message twice');
      const first = stored.indexOf(dom[0]);
      assert.ok(first > n - 250, `the newest page only: it begins at message ${first}`);
      assert.deepEqual(dom, stored.slice(first).filter((u) => dom.includes(u)), 'in the stored order');
      assert.ok(dom.includes(stored[n - 1]), 'the conversation\'s newest message is shown');
      await page.locator('.pane-chat:not([hidden]) .chat-imported').waitFor();
      const nodes = await page.evaluate(() => document.getElementsByTagName('*').length);
      assert.ok(nodes < 20_000, `${nodes} elements`);
      await shots(page, 'chat-adopt-done');

      // The older pages are read as usual, right before the newest page.
      await page.locator('.pane-chat:not([hidden]) .chat-older-btn').click();
      await page.waitForFunction((k) => document.querySelectorAll('.pane-chat:not([hidden]) .chat-log [data-uuid]').length > k, dom.length);
      const more = await page.locator('.pane-chat:not([hidden]) .chat-log [data-uuid]').evaluateAll((els) => els.map((e) => e.dataset.uuid));
      const from = stored.indexOf(more[0]);
      assert.equal(new Set(more).size, more.length, 'no message twice after the older page');
      assert.deepEqual(more, stored.slice(from).filter((u) => more.includes(u)), 'the older page in front, in order');
      assert.ok(from < first, 'older messages in front');
      assert.deepEqual(await overflow(page), [], 'nothing overflows');
      assert.deepEqual(page.errors, [], 'no console errors');
      await page.context().close();
    });
  }
});
