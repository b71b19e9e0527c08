// Browser end-to-end for search (docs/api-extensions.md, "Search"), with the
// real Claude CLI against the fake Messages API: a conversation of several
// turns, then Ctrl+K finds an old message from the start page and Enter
// opens its session with the message scrolled into view and highlighted;
// Ctrl+F inside the chat steps through the matches of the loaded transcript;
// a partial answer (the server's time limit) and an index that lags are said
// so in the palette.
// Screenshots of both at 1280x800 and 390x844, light and dark, go to
// SHOTS_DIR when it is set.
import assert from 'node:assert/strict';
import { access, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { desktop, launchBrowser, newPage, phone, waitMs } from './browser.mjs';
import { claudeBin, claudeServerOptions, startFakeApi } from './fakeapi.mjs';
import { AgentdeskServer } from './server.mjs';
import { api as rest, overflow, signIn } from './ux.mjs';

const fillers = 6;

/** How many messages of the visible chat hold text (what find should count). */
function matching(page, text) {
  return page.evaluate((t) => [...document.querySelectorAll('.pane-chat:not([hidden]) .chat-log [data-uuid]')]
    .filter((el) => el.textContent.toLowerCase().includes(t)).length, text);
}

describe('search across conversations and in-chat find', { timeout: 300_000 }, () => {
  let tmp;
  let fake;
  let server;
  let browser;
  let page;
  let sid;
  let wid;

  before(async () => {
    await access(claudeBin);
    tmp = await mkdtemp(path.join(os.tmpdir(), 'agentdesk-search-e2e-'));
    fake = await startFakeApi(tmp);
    server = await AgentdeskServer.start(claudeServerOptions(fake.url));
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    try {
      await server?.dispose();
    } finally {
      await fake?.stop();
      if (tmp) await rm(tmp, { recursive: true, force: true });
    }
  });

  const pane = () => page.locator('.pane-chat:not([hidden])');

  async function send(text) {
    const input = pane().locator('.chat-input');
    await page.waitForFunction((el) => !el.disabled, await input.elementHandle(), { timeout: waitMs });
    await input.fill(text);
    await input.press('Enter');
    await pane().locator('.chat-user', { hasText: text.split('\n')[0] }).last().waitFor({ timeout: waitMs });
  }

  async function waitResults(n) {
    await page.waitForFunction((n) => document.querySelectorAll('.pane-chat:not([hidden]) .chat-result').length >= n, n, { timeout: waitMs });
  }

  /** Polls GET /api/search until it has a hit for q (the index follows the store). */
  async function waitIndexed(q) {
    const end = Date.now() + waitMs;
    for (;;) {
      const { hits } = await rest(server, 'GET', `/api/search?q=${encodeURIComponent(q)}`);
      if (hits.length > 0) return hits;
      if (Date.now() > end) throw new Error(`no hit for ${q}`);
      await new Promise((r) => setTimeout(r, 100)); // polls the indexer; the deadline only guards
    }
  }

  async function shots(name) {
    if (!process.env.SHOTS_DIR) return;
    const size = page.viewportSize();
    for (const scheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: path.join(process.env.SHOTS_DIR, `${name}-${size.width}-${scheme}.png`) });
    }
    await page.emulateMedia({ colorScheme: 'light' });
  }

  test('a conversation of several turns', async () => {
    page = await newPage(browser, desktop);
    await signIn(page, server);
    const s = await rest(server, 'POST', '/api/sessions', { cwd: await server.tempDir(), title: 'search e2e', agent: 'sdk' });
    sid = s.id;
    wid = s.workers.find((w) => w.kind === 'sdk').id;
    await page.goto(`${server.url}/s/${sid}/w/${wid}`);
    await pane().locator('.chat-conn[data-state="open"]').waitFor({ timeout: waitMs });
    await send('where is the xylophone kept?');
    await waitResults(1);
    for (let i = 1; i <= fillers; i++) {
      await send(`filler number ${i}\n${'a line to take room\n'.repeat(12)}`);
      await waitResults(i + 1); // one turn at a time: a message sent during a turn would join it
    }
  });

  test('Ctrl+K finds the old message; Enter shows it highlighted in its session', async () => {
    const [hit] = await waitIndexed('xylophone');
    assert.equal(hit.sessionId, sid);
    assert.equal(hit.role, 'user');
    assert.match(hit.snippet, /<mark>xylophone<\/mark>/);

    await page.goto(server.url + '/');
    await page.locator('.conn[data-state="open"]').waitFor();
    await page.keyboard.press('Control+K');
    await page.locator('.palette-input').fill('xyloph');
    const row = page.locator('.palette-hit', { hasText: 'xylophone' }).first();
    await row.waitFor();
    assert.equal(await row.locator('mark').first().innerText(), 'xylophone');
    assert.match(await row.locator('.palette-title').innerText(), /search e2e/);
    await shots('search-palette');
    await page.locator('.palette-input').press('Enter');

    const target = page.locator(`[data-uuid="${hit.uuid}"].search-target`);
    await target.waitFor({ timeout: waitMs });
    assert.match(page.url(), new RegExp(`/s/${sid}`));
    await page.waitForFunction((u) => {
      const el = document.querySelector(`[data-uuid="${u}"]`);
      const r = el?.getBoundingClientRect();
      return r !== undefined && r.top >= 0 && r.bottom <= innerHeight;
    }, hit.uuid, { timeout: waitMs });
    assert.match(await target.innerText(), /xylophone/);
    await shots('search-jump');
  });

  test('Ctrl+F finds in the loaded chat, next and previous', async () => {
    await page.keyboard.press('Control+F');
    const input = page.locator('.find-input');
    await input.waitFor();
    await input.fill('filler number');
    const count = page.locator('.find-count');
    // The user's messages and the fake API's echoes of them.
    const n = await matching(page, 'filler number');
    assert.ok(n >= fillers, `${n} messages hold the words`);
    await page.waitForFunction((n) => document.querySelector('.find-count')?.textContent === `${n} of ${n}`, n);
    assert.match(await page.locator('.find-current').innerText(), /filler number 6/);
    await input.press('Enter');
    assert.equal(await count.innerText(), `1 of ${n}`);
    assert.match(await page.locator('.find-current').innerText(), /filler number 1/);
    await page.waitForFunction(() => {
      const r = document.querySelector('.find-current')?.getBoundingClientRect();
      return r !== undefined && r.top >= 0 && r.bottom <= innerHeight;
    });
    await input.press('Shift+Enter');
    assert.equal(await count.innerText(), `${n} of ${n}`);
    await shots('chat-find');
    await input.press('Escape');
    assert.equal(await page.locator('.find-current, .find-hit').count(), 0);
    assert.deepEqual(page.errors, []);
  });

  test('a partial answer says that only the most recent matches are shown', async () => {
    // The server's time limit cannot be hit on purpose: the real answer is
    // marked partial on its way to the page.
    await page.route('**/api/search?*', async (route) => {
      const res = await route.fetch();
      await route.fulfill({ response: res, json: { ...(await res.json()), partial: true } });
    });
    await page.keyboard.press('Control+K');
    await page.locator('.palette-input').fill('xylophone');
    // The hits of the earlier search are still listed: wait for this answer's line.
    await page.waitForFunction(() => document.querySelector('.palette-status')?.textContent !== '', null, { timeout: waitMs });
    assert.match(await page.locator('.palette-status').innerText(), /^Showing the most recent matches: the search took too long/);
    assert.match(await page.locator('.palette-hit').first().innerText(), /xylophone/);
    await shots('search-partial');
    await page.unroute('**/api/search?*');
    await page.locator('.palette-input').fill('xylophone kept');
    await page.waitForFunction(() => document.querySelector('.palette-status')?.textContent === ''
      && document.querySelector('.palette-hit') !== null, null, { timeout: waitMs });
    await page.locator('.palette-input').press('Escape');
    assert.deepEqual(page.errors, []);
  });

  test('an index that lags behind the chat says how many messages are not searchable yet', async () => {
    // A lag needs a flood of messages faster than the indexer: the real
    // answer is given a lag on its way to the page, as the server sends it
    // (docs/api-extensions.md, "Search").
    await page.route('**/api/search?*', async (route) => {
      const res = await route.fetch();
      await route.fulfill({ response: res, json: { ...(await res.json()), behind: 12345 } });
    });
    await page.keyboard.press('Control+K');
    await page.locator('.palette-input').fill('xylophone');
    await page.waitForFunction(() => document.querySelector('.palette-status')?.textContent !== '', null, { timeout: waitMs });
    assert.equal(await page.locator('.palette-status').innerText(), 'Indexing: the newest 12,345 messages are not searchable yet.');
    assert.match(await page.locator('.palette-hit').first().innerText(), /xylophone/);
    await shots('search-behind');
    await page.unroute('**/api/search?*');
    await page.locator('.palette-input').fill('xylophone kept');
    await page.waitForFunction(() => document.querySelector('.palette-status')?.textContent === ''
      && document.querySelector('.palette-hit') !== null, null, { timeout: waitMs });
    await page.locator('.palette-input').press('Escape');
    assert.deepEqual(page.errors, []);
  });

  test('phone: the buttons open both, big enough and nothing overflows', async () => {
    const p = await newPage(browser, phone);
    page = p;
    await signIn(p, server, `/s/${sid}/w/${wid}`);
    await pane().locator('.chat-conn[data-state="open"]').waitFor({ timeout: waitMs });
    for (const sel of ['.search-btn', '.find-btn']) {
      const box = await p.locator(sel).boundingBox();
      assert.ok(box.width >= 40 && box.height >= 40, `${sel} is ${box.width}x${box.height}`);
    }
    await p.locator('.find-btn').tap();
    await p.locator('.find-input').fill('xylophone');
    const n = await matching(p, 'xylophone');
    await p.waitForFunction((n) => document.querySelector('.find-count')?.textContent === `1 of ${n}` || document.querySelector('.find-count')?.textContent === `${n} of ${n}`, n);
    assert.deepEqual(await overflow(p), []);
    await shots('chat-find');
    await p.locator('.find-input').press('Escape');
    await p.locator('.search-btn').tap();
    await p.locator('.palette-input').fill('xylophone');
    await p.locator('.palette-hit').first().waitFor();
    assert.deepEqual(await overflow(p), []);
    await shots('search-palette');
    await p.route('**/api/search?*', async (route) => {
      const res = await route.fetch();
      await route.fulfill({ response: res, json: { ...(await res.json()), partial: true, behind: 12345 } });
    });
    await p.locator('.palette-input').fill('xylophone kept');
    await p.waitForFunction(() => document.querySelector('.palette-status')?.textContent !== '', null, { timeout: waitMs });
    assert.match(await p.locator('.palette-status').innerText(), /too long to look at the rest\. Indexing: the newest 12,345 messages/);
    assert.deepEqual(await overflow(p), []);
    await shots('search-partial-behind');
    await p.unroute('**/api/search?*');
    await p.locator('.palette-hit').first().tap();
    await p.locator('.search-target').waitFor({ timeout: waitMs });
    assert.deepEqual(p.errors, []);
  });
});
