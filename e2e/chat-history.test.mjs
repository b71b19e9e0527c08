// Browser end-to-end for reading a chat's stored history over REST: first a
// unit test of the page reader (frontend/src/panes/chat/history.ts, transpiled
// on the fly) and of the backwards read that cuts a page where it renders
// on its own (history.ts, cut.ts), then a long conversation from the fake
// CLI (internal/testkit/fakeclaude, FAKECLAUDE_FLOOD) opened on its newest
// page (one REST read), in order, once, at the bottom, with a live turn
// after it. Older pages as the person scrolls: chat-pages.test.mjs.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import ts from 'typescript';
import { launchBrowser, newPage } from './browser.mjs';
import { AgentdeskServer } from './server.mjs';

/** Every wait in this file is bounded by this. */
const waitMs = 30_000;

/** Imports a frontend module transpiled on the fly; deps maps its relative imports to modules already loaded. */
async function loadModule(rel, deps = {}) {
  const src = await readFile(new URL(`../frontend/src/${rel}`, import.meta.url), 'utf8');
  let js = ts.transpileModule(src, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
  for (const [spec, url] of Object.entries(deps)) js = js.replaceAll(`from '${spec}'`, `from '${url}'`);
  const url = `data:text/javascript;base64,${Buffer.from(js).toString('base64')}`;
  return { url, mod: await import(url) };
}


test('readHistory walks the REST pages after each last uuid, each message once', async (t) => {
  const protocol = await loadModule('panes/chat/protocol.ts');
  const cut = await loadModule('panes/chat/cut.ts', { './protocol': protocol.url });
  const { readHistory, firstPageSize, maxPageSize } = (await loadModule('panes/chat/history.ts', { './protocol': protocol.url, './cut': cut.url })).mod;
  const log = (n) => Array.from({ length: n }, (_, i) => ({ seq: i + 1, message: { type: 'assistant', uuid: `u${i}` } }));
  /** The messages endpoint over a log (API.md); the call numbered failAt fails. */
  const endpoint = (msgs, calls, failAt = -1) => async (after, limit) => {
    calls.push([after, limit]);
    if (calls.length - 1 === failAt) throw new Error('network');
    const from = after === '' ? 0 : msgs.findIndex((m) => m.message.uuid === after) + 1;
    if (from === 0 && after !== '') throw new Error('404');
    return { messages: msgs.slice(from, from + limit), hasMore: from + limit < msgs.length };
  };
  const f = firstPageSize;
  const cases = [
    { name: 'empty', n: 0, want: 0, last: '', pages: 1 },
    { name: 'one page', n: 10, want: 10, last: 'u9', pages: 1 },
    { name: 'pages double', n: f * 7 + 1, want: f * 7 + 1, last: `u${f * 7}`, pages: 4 },
    { name: 'a failed page leaves the cursor at the last delivered', n: f * 2, want: f, last: `u${f - 1}`, pages: 2, failAt: 1 },
    { name: 'stop drops the page in flight', n: f * 2, want: f, last: `u${f - 1}`, pages: 2, stopAfter: 1 },
    { name: 'not an answer', n: 5, want: 0, last: '', pages: 1, garbage: true },
  ];
  for (const c of cases) {
    await t.test(c.name, async () => {
      const calls = [];
      const got = [];
      const fetchPage = c.garbage ? async (after, limit) => (calls.push([after, limit]), ['not', 'a', 'page'])
        : endpoint(log(c.n), calls, c.failAt);
      const last = await readHistory(fetchPage, '', (page) => got.push(...page.map((m) => m.message.uuid)),
        () => c.stopAfter !== undefined && calls.length > c.stopAfter);
      assert.equal(last, c.last);
      assert.deepEqual(got, log(c.want).map((m) => m.message.uuid), 'every message once, in order');
      assert.equal(calls.length, c.pages);
      let read = 0;
      calls.forEach(([after, limit], i) => {
        assert.equal(limit, Math.min(f * 2 ** i, maxPageSize), `page ${i} size`);
        assert.equal(after, i === 0 ? '' : `u${read - 1}`, `page ${i} cursor`);
        read += limit;
      });
    });
  }
});

test('readBack reads the newest page first and cuts it where a result would lose its call', async (t) => {
  const protocol = await loadModule('panes/chat/protocol.ts');
  const cut = await loadModule('panes/chat/cut.ts', { './protocol': protocol.url });
  const { readBack } = (await loadModule('panes/chat/history.ts', { './protocol': protocol.url, './cut': cut.url })).mod;
  const { cleanStart } = cut.mod;
  const text = (u) => ({ type: 'assistant', uuid: u, message: { content: [{ type: 'text', text: u }] } });
  const call = (u, id) => ({ type: 'assistant', uuid: u, message: { content: [{ type: 'tool_use', id, name: 'Bash', input: {} }] } });
  const result = (u, id) => ({ type: 'user', uuid: u, message: { content: [{ type: 'tool_result', tool_use_id: id, content: 'ok' }] } });
  const sub = (u, parent) => ({ ...text(u), parent_tool_use_id: parent });
  await t.test('cleanStart', () => {
    assert.equal(cleanStart([text('a'), text('b')]), 0, 'nothing refers back: the whole page');
    assert.equal(cleanStart([result('r', 'x'), text('a'), text('b')]), 1, 'a result whose call is older: cut after it');
    assert.equal(cleanStart([text('a'), call('c', 'y'), text('b'), result('r', 'y'), text('d')]), 0, 'a call and its result inside the page');
    assert.equal(cleanStart([sub('s', 'x'), call('c', 'y'), sub('s2', 'y'), result('r', 'y'), text('d')]), 1,
      'a sub-agent line of an older call: cut after it; the later call keeps its lines');
    assert.equal(cleanStart([text('a'), result('r', 'x')]), 0, 'no clean cut short of the end: the whole page');
  });
  await t.test('readBack', async () => {
    const calls = [];
    const msgs = [text('u0'), call('u1', 'y'), result('u2', 'y'), text('u3'), call('u4', 'z'), result('u5', 'z'), text('u6')];
    const endpoint = async (before, limit) => {
      calls.push([before, limit]);
      const end = before === '' ? msgs.length : msgs.findIndex((m) => m.uuid === before);
      const from = Math.max(0, end - limit);
      return { messages: msgs.slice(from, end).map((m, i) => ({ seq: from + i + 1, message: m })), hasMore: from > 0 };
    };
    const newest = await readBack(endpoint, '', 3);
    assert.deepEqual(newest.messages.map((m) => m.message.uuid), ['u4', 'u5', 'u6'], 'the newest page');
    assert.equal(newest.next, 'u4');
    const cutPage = await readBack(endpoint, 'u4', 2);
    assert.deepEqual(cutPage.messages.map((m) => m.message.uuid), ['u3'], 'u2 is a result of the call in u1: it comes with the older page');
    assert.equal(cutPage.next, 'u3');
    const oldest = await readBack(endpoint, 'u3', 5);
    assert.deepEqual(oldest.messages.map((m) => m.message.uuid), ['u0', 'u1', 'u2']);
    assert.equal(oldest.next, '', 'nothing older');
    assert.deepEqual(calls, [['', 3], ['u4', 2], ['u3', 5]]);
    assert.equal(await readBack(async () => ['not', 'a', 'page'], '', 3), null);
  });
});

describe('chat pane over a long conversation', { timeout: 300_000 }, () => {
  /** Lines of each fake CLI turn: more than the first two REST pages hold. */
  const flood = 2500;
  let tmp;
  let server;
  let browser;

  before(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'agentdesk-chat-flood-'));
    const fake = path.join(tmp, 'fakeclaude');
    await promisify(execFile)('go', ['build', '-o', fake, './internal/testkit/fakeclaude'],
      { cwd: new URL('..', import.meta.url), timeout: 180_000 });
    server = await AgentdeskServer.start({ args: ['--claude', fake], env: { FAKECLAUDE_FLOOD: flood } });
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    try {
      await server?.dispose();
    } finally {
      if (tmp) await rm(tmp, { recursive: true, force: true });
    }
  });

  async function rest(method, p, body) {
    const res = await fetch(server.url + p, {
      method,
      headers: { Authorization: `Bearer ${server.token}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    assert.ok(res.ok, `${method} ${p}: ${res.status}`);
    return res.status === 202 || res.status === 204 ? null : res.json();
  }

  /** Every stored message's uuid, oldest first, once `results` turns are stored. */
  async function storedUuids(base, results) {
    const deadline = Date.now() + waitMs;
    for (let i = 0; Date.now() < deadline; i++) {
      const all = [];
      for (let after = '', more = true; more;) {
        const r = await rest('GET', `${base}/messages?limit=5000&after=${after}`);
        all.push(...r.messages.map((m) => m.message));
        more = r.hasMore && r.messages.length > 0;
        if (more) after = all.at(-1).uuid;
      }
      if (all.filter((m) => m.type === 'result').length >= results) return all.map((m) => m.uuid);
      await new Promise((r) => setTimeout(r, Math.min(50 * 2 ** i, 500)));
    }
    throw new Error(`${results} turns not stored within ${waitMs} ms`);
  }

  test('the chat opens on its newest REST page, in order, once, at the bottom; a live turn follows it', async () => {
    const s = await rest('POST', '/api/sessions', { cwd: await server.tempDir(), title: 'flood' });
    const wid = s.workers[0].id;
    const base = `/api/sessions/${s.id}/workers/${wid}`;
    await rest('POST', `${base}/input`, { content: 'first flood' });
    const stored = await storedUuids(base, 1);

    const page = await newPage(browser);
    await page.goto(`${server.url}/?token=${server.token}`);
    const requests = [];
    let replayed = 0;
    let historyEnd = false;
    page.on('request', (r) => {
      if (r.url().includes('/messages?')) requests.push(new URL(r.url()).search);
    });
    page.on('websocket', (ws) => ws.on('framereceived', ({ payload }) => {
      if (typeof payload !== 'string' || historyEnd || !ws.url().includes('/workers/')) return;
      const f = JSON.parse(payload);
      if (f.type === 'history-end') historyEnd = true;
      if (f.type === 'sdk-message') replayed++;
    }));
    await page.goto(`${server.url}/s/${s.id}/w/${wid}`);
    const pane = page.locator('.pane-chat:not([hidden])');
    await pane.locator('.chat-conn[data-state="open"]').waitFor({ timeout: waitMs });
    const newest = await page.waitForFunction(() => {
      const log = document.querySelector('.pane-chat:not([hidden]) .chat-log');
      return log?.getAttribute('aria-busy') === 'false' && log.querySelectorAll('.chat-text').length > 0 && log.querySelectorAll('.chat-text').length;
    }, null, { timeout: waitMs }).then((h) => h.jsonValue());
    assert.deepEqual(requests, ['?before=&limit=200'], 'one REST read: the newest page');
    assert.equal(replayed, 0, 'the socket replays none of the history');
    // The messages shown, with those of chunks parked far from view (park.ts: their spacer names them).
    const shown = () => pane.locator('[data-uuid], .chat-parked').evaluateAll((els) => els.flatMap((e) =>
      (e.classList.contains('chat-parked') ? e.dataset.uuids.split(' ').filter((u) => u !== '') : [e.dataset.uuid])));
    let dom = await shown();
    assert.equal(new Set(dom).size, dom.length, 'no message twice');
    assert.deepEqual(dom, stored.slice(stored.indexOf(dom[0])), 'the newest stored messages, in order');
    assert.ok(newest < 200 && newest > 150, `${newest} texts: the newest page only`);
    // The view opens at the bottom (the scroller follows late layout: poll).
    await page.waitForFunction(() => {
      const sc = document.querySelector('.pane-chat:not([hidden]) .chat-scroll');
      return sc !== null && sc.scrollHeight - sc.scrollTop - sc.clientHeight <= 48;
    }, null, { timeout: waitMs });

    const input = pane.locator('.chat-input');
    await input.fill('second flood');
    await input.press('Enter');
    const storedAfter = await storedUuids(base, 2);
    // The whole live turn shows (most of it parked by now: the document holds what is near the view).
    await page.waitForFunction((last) => document.querySelector(`.pane-chat:not([hidden]) [data-uuid="${last}"]`) !== null,
      storedAfter.at(-1), { timeout: waitMs });
    dom = await shown();
    assert.equal(new Set(dom).size, dom.length, 'no message twice after the live turn');
    assert.deepEqual(dom, storedAfter.slice(storedAfter.indexOf(dom[0])), 'the live turn after the history');
    const elements = await page.evaluate(() => document.getElementsByTagName('*').length);
    assert.ok(elements < 20_000, `${elements} elements after a turn of ${flood} messages`);
    assert.deepEqual(page.errors, [], 'no console errors');
    await page.context().close();
  });
});
