// Browser end-to-end for a long conversation read in pages (issue 28;
// frontend/src/panes/chat/older.ts, GET …/messages?before= in
// docs/api-extensions.md): a 5,000-message claude CLI session file
// (bench/conversation.mjs) is adopted, then the chat opens on its newest
// page only, with the last message on screen; scrolling up puts the older
// page in front without moving what is on screen; a search hit thousands
// of messages back opens highlighted (the chat reads pages until it has it);
// the in-chat find reads the earlier pages on request and finds the first
// message; copy works on an older page. At 1280x800 and 390x844.
// Screenshots (light and dark) go to SHOTS_DIR when it is set.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { lastMarker, writeConversation } from '../bench/conversation.mjs';
import { desktop, launchBrowser, newPage, phone, waitMs } from './browser.mjs';
import { AgentdeskServer } from './server.mjs';
import { api as rest, overflow, signIn } from './ux.mjs';

const n = 5000;
/** Long waits: adopting and reading 5,000 messages on a busy machine. */
const longMs = 120_000;

describe('a long conversation read in pages', { timeout: 900_000 }, () => {
  let server;
  let browser;
  let route;
  let sid;
  /** Every stored message's uuid, oldest first. */
  let stored;

  before(async () => {
    server = await AgentdeskServer.start();
    browser = await launchBrowser();
    const cwd = await server.tempDir('project-');
    const csid = randomUUID();
    await writeConversation(path.join(server.home, '.claude'), { n, sid: csid, cwd });
    const s = await rest(server, 'POST', '/api/sessions', { cwd, claudeSessionId: csid, title: 'long chat' });
    sid = s.id;
    const w = s.workers.find((x) => x.kind === 'sdk') ?? s.workers[0];
    route = `/s/${s.id}/w/${w.id}`;
    stored = await storedOnceImported(`/api/sessions/${s.id}/workers/${w.id}`);
  });

  after(async () => {
    await browser?.close();
    await server?.dispose();
  });

  /** The stored uuids once the import's closing note is stored (it follows the imported lines). */
  async function storedOnceImported(base) {
    const end = Date.now() + longMs;
    for (let i = 0; ; i++) {
      const all = [];
      for (let after = '', more = true; more;) {
        const r = await rest(server, 'GET', `${base}/messages?limit=5000&after=${after}`);
        all.push(...r.messages.map((m) => m.message));
        more = r.hasMore && r.messages.length > 0;
        if (more) after = all.at(-1).uuid;
      }
      const texts = all.filter((m) => JSON.stringify(m).includes(lastMarker(n)));
      if (texts.length > 0 && all.length >= n) return all.map((m) => m.uuid);
      if (Date.now() > end) throw new Error(`the import did not end within ${longMs} ms (${all.length} stored)`);
      await new Promise((r) => setTimeout(r, Math.min(50 * 2 ** i, 500))); // polls the import; the deadline only guards
    }
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

  /** Opens the chat; returns the page and the message reads it made. */
  async function open(viewport) {
    const page = await newPage(browser, viewport);
    const reads = [];
    page.on('request', (r) => {
      if (r.url().includes('/messages?')) reads.push(new URL(r.url()).searchParams);
    });
    page.on('requestfinished', (r) => {
      if (r.url().includes('/messages?')) void page.evaluate((k) => { window.__reads = k; }, reads.length).catch(() => undefined);
    });
    await signIn(page, server);
    await page.goto(server.url + route);
    await page.waitForFunction((marker) => {
      const sc = document.querySelector('.pane-chat:not([hidden]) .chat-scroll');
      for (const el of document.querySelectorAll('.pane-chat:not([hidden]) [data-uuid]')) {
        if (!el.textContent.includes(marker)) continue;
        const r = el.getBoundingClientRect();
        const s = sc.getBoundingClientRect();
        return r.bottom > s.top && r.top < s.bottom;
      }
      return false;
    }, lastMarker(n), { timeout: longMs });
    return { page, reads };
  }

  const shown = (page) => page.locator('.pane-chat:not([hidden]) .chat-log [data-uuid]').evaluateAll((els) => els.map((e) => e.dataset.uuid));

  /** The uuids shown are one run of the stored ones, in order, each once, ending with the newest. */
  function assertRun(dom, what) {
    assert.equal(new Set(dom).size, dom.length, `${what}: no message twice`);
    const first = stored.indexOf(dom[0]);
    assert.ok(first >= 0, `${what}: the first shown is stored`);
    const run = stored.slice(first).filter((u) => dom.includes(u));
    assert.deepEqual(dom, run, `${what}: in the stored order`);
    assert.equal(dom.at(-1), stored.filter((u) => dom.includes(u)).at(-1), `${what}: up to the newest shown`);
    return first;
  }

  for (const [size, viewport] of [['desktop', desktop], ['phone', phone]]) {
    test(`${size}: opens on the newest page; scrolling up puts the older page in front without a jump`, async () => {
      const { page, reads } = await open(viewport);
      assert.equal(reads[0]?.get('before'), '', 'the first read is the newest page');
      assert.ok(reads.every((q) => q.has('before')), 'no forward read of the whole history');
      const dom = await shown(page);
      assert.ok(dom.length > 50 && dom.length <= 200, `${dom.length} messages in the DOM at open`);
      const first = assertRun(dom, 'at open');
      assert.ok(first > n - 250, `the newest page: the first shown is message ${first}`);
      const nodes = await page.evaluate(() => document.getElementsByTagName('*').length);
      assert.ok(nodes < 20_000, `${nodes} elements at open`);
      await page.waitForFunction(() => document.querySelector('.pane-chat:not([hidden]) .chat-log')?.getAttribute('aria-busy') === 'false');
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      assert.equal(reads.length, 1, 'no older page is read while the person reads the newest');
      await shots(page, 'chat-long-newest');

      // Up a little first, as a person does (the view stops following the bottom: the jump pill shows),
      // then to the top of the newest page: the older one is read and put in front.
      const sc = page.locator('.pane-chat:not([hidden]) .chat-scroll');
      await sc.evaluate((el) => { el.scrollTop -= 400; });
      await page.locator('.pane-chat:not([hidden]) .chat-jump').waitFor({ state: 'visible' });
      const before = await sc.evaluate((el) => {
        el.scrollTop = 0;
        const top = el.getBoundingClientRect().top;
        const first = [...el.querySelectorAll('.chat-log [data-uuid]')].find((m) => m.getBoundingClientRect().bottom > top);
        return { uuid: first.dataset.uuid, y: first.getBoundingClientRect().top };
      });
      // A person at the top who sees nothing older yet flicks up again: each poll that finds no
      // older page scrolls to the top once more (never after one came, which moved the view).
      await page.waitForFunction((k) => {
        if (document.querySelectorAll('.pane-chat:not([hidden]) .chat-log [data-uuid]').length > k) return true;
        const el = document.querySelector('.pane-chat:not([hidden]) .chat-scroll');
        if (el.scrollTop !== 0) el.scrollTop = 0;
        return false;
      }, dom.length, { timeout: waitMs, polling: 250 });
      const y = await page.evaluate((u) => document.querySelector(`.pane-chat:not([hidden]) [data-uuid="${u}"]`).getBoundingClientRect().top, before.uuid);
      assert.ok(Math.abs(y - before.y) <= 2, `the message on screen stays put: ${before.y} → ${y}`);
      const more = await shown(page);
      assert.equal(more.at(-1), dom.at(-1));
      const older = assertRun(more, 'after the older page');
      assert.ok(older < first, 'older messages in front');
      const q = reads.at(-1);
      assert.equal(q.get('before'), stored[first], 'the older read goes before the oldest shown');
      assert.deepEqual(await overflow(page), [], 'nothing overflows');
      assert.deepEqual(page.errors, [], 'no console errors');
      await page.context().close();
    });
  }

  for (const [size, viewport] of [['desktop', desktop], ['phone', phone]]) {
    test(`${size}: scrolling up through thousands of messages keeps the document small; down again shows the newest`, async (t) => {
      const { page, reads } = await open(viewport);
      await page.waitForFunction(() => document.querySelector('.pane-chat:not([hidden]) .chat-log')?.getAttribute('aria-busy') === 'false');
      const sc = page.locator('.pane-chat:not([hidden]) .chat-scroll');
      const elements = () => page.evaluate(() => document.getElementsByTagName('*').length);
      let most = 0;
      for (let k = 1; k <= 8; k++) {
        // To the top until the next older page is read (each poll that sees none scrolls up again).
        await page.waitForFunction((want) => {
          if (window.__reads >= want) return true;
          const el = document.querySelector('.pane-chat:not([hidden]) .chat-scroll');
          if (el.scrollTop !== 0) el.scrollTop = 0;
          return false;
        }, k + 1, { timeout: longMs, polling: 250 }).catch(() => undefined);
        assert.ok(reads.length >= k + 1, `older page ${k} read`);
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        most = Math.max(most, await elements());
      }
      t.diagnostic(`${size}: at most ${most} elements while ${reads.length - 1} older pages were read`);
      assert.ok(most < 20_000, `at most ${most} elements while ${reads.length - 1} older pages were read`);
      const parked = await page.locator('.pane-chat:not([hidden]) .chat-parked').count();
      assert.ok(parked > 0, 'chunks far from view are parked');
      // What is on screen at the top is still the oldest read, in order.
      const dom = await shown(page);
      assertRun(dom, 'after eight older pages');
      await shots(page, 'chat-long-parked');

      // Down again: the newest message shows, and the document stays small.
      await sc.evaluate((el) => { el.scrollTop = el.scrollHeight; });
      await page.waitForFunction((marker) => {
        const box = document.querySelector('.pane-chat:not([hidden]) .chat-scroll');
        box.scrollTop = box.scrollHeight;
        for (const el of document.querySelectorAll('.pane-chat:not([hidden]) [data-uuid]')) {
          if (!el.textContent.includes(marker)) continue;
          const r = el.getBoundingClientRect();
          const q = box.getBoundingClientRect();
          return r.bottom > q.top && r.top < q.bottom;
        }
        return false;
      }, lastMarker(n), { timeout: longMs, polling: 250 });
      assert.ok(await elements() < 20_000, 'small at the bottom again');
      assertRun(await shown(page), 'back at the bottom');
      assert.deepEqual(page.errors, [], 'no console errors');
      await page.context().close();
    });
  }

  test('a search hit on message 41 of 5,000 opens highlighted', async () => {
    // Message 41 is an answer with the word m41 (ranked above m410…m4199, which it starts).
    const q = 'm41';
    const end = Date.now() + longMs;
    let hits = [];
    while (hits.length === 0) {
      ({ hits } = await rest(server, 'GET', `/api/search?q=${q}`));
      if (Date.now() > end) throw new Error(`${q} not indexed`);
      if (hits.length === 0) await new Promise((r) => setTimeout(r, 200)); // polls the indexer; the deadline only guards
    }
    const hit = hits[0];
    assert.equal(hit.sessionId, sid);
    assert.match(hit.snippet, /<mark>m41<\/mark>/);
    assert.equal(stored.indexOf(hit.uuid), 41, 'the hit is message 41 of 5,000');
    const page = await newPage(browser, desktop);
    await signIn(page, server);
    await page.keyboard.press('Control+K');
    await page.locator('.palette-input').fill(q);
    const row = page.locator('.palette-hit').first();
    await row.waitFor({ timeout: waitMs });
    assert.equal(await row.locator('mark').first().innerText(), 'm41');
    await page.locator('.palette-input').press('Enter');
    const target = page.locator(`[data-uuid="${hit.uuid}"].search-target`);
    await target.waitFor({ timeout: longMs });
    await page.waitForFunction((u) => {
      const r = document.querySelector(`[data-uuid="${u}"]`)?.getBoundingClientRect();
      return r !== undefined && r.bottom > 0 && r.top < innerHeight;
    }, hit.uuid, { timeout: waitMs });
    assert.match(await target.innerText(), /Here is what I found for m41:/);
    assertRun(await shown(page), 'after the jump');
    await shots(page, 'chat-long-jump');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('find in chat: "Search earlier" reads the rest and finds the first message; copy works there', async () => {
    const { page } = await open(desktop);
    await page.keyboard.press('Control+F');
    const input = page.locator('.find-input');
    await input.fill('please look at m0:');
    await page.waitForFunction(() => document.querySelector('.find-count')?.textContent === 'No matches');
    const earlier = page.locator('.find-earlier');
    await earlier.waitFor({ state: 'visible' });
    await earlier.click();
    await page.waitForFunction(() => document.querySelector('.find-count')?.textContent === '1 of 1', null, { timeout: longMs });
    assert.equal(await earlier.isVisible(), false, 'nothing earlier is left');
    const current = page.locator('.find-current');
    assert.match(await current.innerText(), /m0:/);
    assert.equal(await current.getAttribute('data-uuid'), stored[0]);
    assertRun(await shown(page), 'after reading all');
    await input.press('Escape');
    // The copy button of the first answer (an older page) copies its text.
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    const answer = page.locator(`.pane-chat:not([hidden]) [data-uuid="${stored[1]}"]`);
    await answer.scrollIntoViewIfNeeded();
    await answer.locator('.msg-tools .copy-btn').click();
    const text = await page.evaluate(() => navigator.clipboard.readText());
    assert.match(text, /Here is what I found for \*\*m1\*\*/);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});
