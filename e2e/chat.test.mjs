// Browser end-to-end for the chat pane of sdk workers, with the real Claude CLI
// (node_modules/.bin/claude) talking to the fake Messages API
// (internal/fakeapi/cmd/fakeapi) on loopback: a message and its echo, a Bash
// call allowed from the permission dialog (which disappears in a second tab
// too), an AskUserQuestion answered, thinking, a slow turn cancelled, and a reload that
// shows the conversation again with no message twice, its history read over
// REST (the socket replays none of it), also in the middle of a turn. First, a
// unit test of the REST history reader (panes/chat/history.ts); last, a long
// conversation from the fake CLI (internal/fakeclaude, FAKECLAUDE_FLOOD) read
// in several REST pages, then a live turn after it.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { access, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import ts from 'typescript';
import { launchBrowser, newPage } from './browser.mjs';
import { claudeBin, claudeServerOptions, startFakeApi } from './fakeapi.mjs';
import { AgentdeskServer } from './server.mjs';

/** Every wait in this file is bounded by this. */
const waitMs = 30_000;

/** Console noise that is the browser reporting an expected failure. */
const expectedNoise = [/WebSocket connection to .* failed/, /status of 409/];

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
  const { readHistory, firstPageSize, maxPageSize } = (await loadModule('panes/chat/history.ts', { './protocol': protocol.url })).mod;
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

describe('chat pane with the real Claude CLI', { timeout: 300_000 }, () => {
  let tmp;
  let api;
  let server;
  let browser;
  let page;
  let cwd;

  before(async () => {
    await access(claudeBin); // fails loudly when node_modules is not installed
    tmp = await mkdtemp(path.join(os.tmpdir(), 'agentdesk-chat-e2e-'));
    api = await startFakeApi(tmp);
    server = await AgentdeskServer.start(claudeServerOptions(api.url));
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    try {
      if (process.env.CHAT_E2E_LOG) console.log(`${server?.output ?? ''}\n${api?.log() ?? ''}`);
      await server?.dispose();
    } finally {
      await api?.stop();
      if (tmp) await rm(tmp, { recursive: true, force: true });
    }
  });

  /** The visible chat pane. */
  const pane = (p = page) => p.locator('.pane-chat:not([hidden])');

  async function send(text, p = page) {
    const input = pane(p).locator('.chat-input');
    await input.waitFor({ state: 'visible', timeout: waitMs });
    await assertEnabled(input);
    await input.fill(text);
    await input.press('Enter');
    await pane(p).locator('.chat-user', { hasText: text }).last().waitFor({ timeout: waitMs });
  }

  async function assertEnabled(locator) {
    await locator.page().waitForFunction((el) => !el.disabled, await locator.elementHandle(), { timeout: waitMs });
  }

  /** Waits until the pane shows n turn footers (result lines). */
  async function waitResults(n, p = page) {
    try {
      await p.waitForFunction(({ n }) => document.querySelectorAll('.pane-chat:not([hidden]) .chat-result').length >= n,
        { n }, { timeout: waitMs });
    } catch (err) {
      throw new Error(`expected ${n} finished turns; pane shows:\n${await pane(p).innerText()}\n\nserver:\n${server.output}\nfake API:\n${api.log()}\n(${err.message})`);
    }
  }

  /** data-uuid of every message element; they must all differ. */
  async function uuids(p = page) {
    return pane(p).locator('[data-uuid]').evaluateAll((els) => els.map((e) => e.dataset.uuid));
  }

  test('a message gets its echo', async () => {
    page = await newPage(browser);
    await page.goto(`${server.url}/?token=${server.token}`);
    await page.locator('.conn[data-state="open"]').waitFor({ timeout: waitMs });
    cwd = await mkdtemp(path.join(tmp, 'work-'));
    await page.keyboard.press('Alt+N');
    await page.locator('#ns-cwd').fill(cwd);
    await page.locator('#ns-title').fill('chat e2e');
    await page.locator('#ns-agent').selectOption('sdk');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/\/s\/[^/]+/, { timeout: waitMs });
    await pane().locator('.chat-conn[data-state="open"]').waitFor({ timeout: waitMs });

    await send('hello');
    await pane().locator('.chat-text', { hasText: 'Echo: hello' }).waitFor({ timeout: waitMs });
    await waitResults(1);
    assert.equal(await pane().locator('.chat-user', { hasText: 'hello' }).count(), 1, 'the user message shows once');
    await pane().locator('.chat-result[data-outcome="ok"]').first().waitFor();
    assert.equal(await pane().getAttribute('data-activity'), 'idle');
  });

  test('a Bash call is allowed from the dialog; the dialog goes in every tab', async () => {
    // A second tab of the same browser (it shares the sign-in cookie).
    const other = await page.context().newPage();
    await other.goto(page.url());
    await pane(other).locator('.chat-conn[data-state="open"]').waitFor({ timeout: waitMs });

    await send('bash:touch x.txt');
    const dialog = pane().locator('.chat-perm');
    await dialog.waitFor({ timeout: waitMs });
    await pane(other).locator('.chat-perm').waitFor({ timeout: waitMs });
    assert.match(await dialog.innerText(), /Bash[\s\S]*touch x\.txt/);
    assert.equal(await pane().getAttribute('data-activity'), 'asking');
    await dialog.getByRole('button', { name: 'Allow' }).click();
    await dialog.waitFor({ state: 'detached', timeout: waitMs });
    await pane(other).locator('.chat-perm').waitFor({ state: 'detached', timeout: waitMs });

    const card = pane().locator('.chat-tool[data-tool="Bash"]');
    await card.locator('.tool-title', { hasText: 'touch x.txt' }).waitFor({ timeout: waitMs });
    await card.locator('.tool-result').waitFor({ timeout: waitMs });
    assert.equal(await card.getAttribute('data-state'), 'ok');
    await waitResults(2);
    await pane().locator('.chat-text', { hasText: 'Tool finished' }).waitFor({ timeout: waitMs });
    await access(path.join(cwd, 'x.txt')); // the command really ran in the session's directory
    // The other tab got the same conversation live.
    await pane(other).locator('.chat-tool[data-tool="Bash"][data-state="ok"]').waitFor({ timeout: waitMs });
    assert.deepEqual(await uuids(other), await uuids(page));
    await other.close();
  });

  test('an AskUserQuestion is answered', async () => {
    await send('ask');
    const card = pane().locator('.chat-ask');
    await card.waitFor({ timeout: waitMs });
    await card.getByText('Blue', { exact: true }).click();
    await card.getByRole('button', { name: 'Submit' }).click();
    await card.waitFor({ state: 'detached', timeout: waitMs });
    await waitResults(3);
    const tool = pane().locator('.chat-tool[data-tool="AskUserQuestion"]');
    await tool.locator('.tool-result', { hasText: 'Blue' }).waitFor({ timeout: waitMs });
  });

  test('thinking shows collapsed, before the answer', async () => {
    await send('think about it');
    await waitResults(4);
    const thinking = pane().locator('details.chat-thinking', { hasText: 'Let me think' });
    await thinking.waitFor({ state: 'attached', timeout: waitMs });
    assert.equal(await thinking.evaluate((d) => d.open), false, 'collapsed');
    const answer = pane().locator('.chat-text', { hasText: 'Echo: think about it' });
    await answer.waitFor({ timeout: waitMs });
    const before = await thinking.evaluate((t, a) => !!(t.compareDocumentPosition(a) & Node.DOCUMENT_POSITION_FOLLOWING),
      await answer.elementHandle());
    assert.ok(before, 'the thinking comes before the answer');
  });

  test('a slow turn is cancelled, and the next message still works', async () => {
    await send('slow');
    await pane().locator('.chat-text.live', { hasText: 'slow chunk 01' }).waitFor({ timeout: waitMs });
    await pane().locator('.chat-cancel').click();
    await pane().locator('.chat-result[data-outcome="interrupted"]').waitFor({ timeout: waitMs });
    await waitResults(5);
    await page.waitForFunction(() => document.querySelector('.pane-chat:not([hidden])')?.dataset.activity === 'idle',
      null, { timeout: waitMs });
    assert.equal(await pane().locator('.chat-text.live').count(), 0, 'no streaming text is left behind');

    await send('after cancel');
    await pane().locator('.chat-text', { hasText: /Echo: [\s\S]*after cancel/ }).waitFor({ timeout: waitMs });
    await waitResults(6);
  });

  test('a reload shows the same conversation, nothing twice', async () => {
    const before = await uuids();
    assert.equal(new Set(before).size, before.length, 'no uuid twice before the reload');
    await page.reload();
    await pane().locator('.chat-conn[data-state="open"]').waitFor({ timeout: waitMs });
    await waitResults(6);
    await pane().locator('.chat-text', { hasText: /after cancel/ }).waitFor({ timeout: waitMs });
    const again = await uuids();
    assert.deepEqual(again, before, 'the same messages in the same order');
    assert.equal(await pane().locator('.chat-user', { hasText: 'hello' }).count(), 1);
    assert.equal(await pane().locator('.chat-result[data-outcome="interrupted"]').count(), 1);
    assert.deepEqual(page.errors.filter((e) => !expectedNoise.some((re) => re.test(e))), [], 'no console errors');
  });

  /** Records the stored lines the chat socket replays before history-end, and the REST history requests. */
  function watchLoad(p) {
    const w = { replayed: [], historyEnd: false, socketUrls: [], requests: [] };
    p.on('request', (r) => {
      if (/\/workers\/[^/]+\/messages\?/.test(r.url())) w.requests.push(r.url());
    });
    p.on('websocket', (ws) => {
      if (!ws.url().includes('/workers/')) return;
      w.socketUrls.push(ws.url());
      ws.on('framereceived', ({ payload }) => {
        if (typeof payload !== 'string' || w.historyEnd) return;
        const f = JSON.parse(payload);
        if (f.type === 'history-end') w.historyEnd = true;
        else if (f.type === 'sdk-message' && f.message.type !== 'stream_event') w.replayed.push(f.message.uuid);
      });
    });
    return w;
  }

  test('a reload reads the history over REST: the socket replays none of it', async () => {
    const before = await uuids();
    const w = watchLoad(page);
    await page.reload();
    await pane().locator('.chat-conn[data-state="open"]').waitFor({ timeout: waitMs });
    await waitResults(6);
    assert.deepEqual(await uuids(), before, 'the same messages in the same order');
    assert.ok(w.historyEnd, 'the socket sent history-end');
    assert.deepEqual(w.replayed, [], 'no stored line came twice: the socket resumed after the REST history');
    assert.equal(w.requests.length, 1, `one page of history: ${w.requests.join(' ')}`);
    assert.equal(w.socketUrls.length, 1);
    assert.match(w.socketUrls[0], /\?after=[^&]+/, 'the socket connects after the last uuid read');
  });

  test('a reload in the middle of a turn shows its streaming text once, and the turn ends once', async () => {
    await send('slow during reload');
    await pane().locator('.chat-text.live', { hasText: 'slow chunk 01' }).waitFor({ timeout: waitMs });
    await page.reload();
    await pane().locator('.chat-conn[data-state="open"]').waitFor({ timeout: waitMs });
    // The running turn comes back from the socket and goes on streaming.
    await pane().locator('.chat-text.live', { hasText: 'slow chunk 03' }).waitFor({ timeout: waitMs });
    assert.equal(await pane().locator('.chat-text.live').count(), 1, 'the streaming block shows once');
    assert.equal(await pane().locator('.chat-user', { hasText: 'slow during reload' }).count(), 1);
    await pane().locator('.chat-cancel').click();
    await waitResults(7);
    await page.waitForFunction(() => document.querySelector('.pane-chat:not([hidden])')?.dataset.activity === 'idle',
      null, { timeout: waitMs });
    assert.equal(await pane().locator('.chat-text.live').count(), 0, 'no streaming text is left behind');
    assert.equal(await pane().locator('.chat-result[data-outcome="interrupted"]').count(), 2);
    const all = await uuids();
    assert.equal(new Set(all).size, all.length, 'no uuid twice');
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
    await promisify(execFile)('go', ['build', '-o', fake, './internal/fakeclaude'],
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

  test('the history comes in REST pages, in order, once, at the bottom; a live turn follows it', async () => {
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
      if (r.url().includes('/messages?')) requests.push(new URL(r.url()).searchParams.get('limit'));
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
    /** Waits for the text lines and footers of `turns` flood turns. */
    const texts = (turns) => page.waitForFunction(({ n, turns }) => document.querySelectorAll('.pane-chat:not([hidden]) .chat-text').length >= n
      && document.querySelectorAll('.pane-chat:not([hidden]) .chat-result').length >= turns, { n: turns * flood, turns }, { timeout: waitMs });
    await texts(1);
    assert.deepEqual(requests, ['1000', '2000'], 'two REST pages, the second one twice as large');
    assert.equal(replayed, 0, 'the socket replays none of the history');
    const shown = () => pane.locator('[data-uuid]').evaluateAll((els) => els.map((e) => e.dataset.uuid));
    let dom = await shown();
    assert.equal(new Set(dom).size, dom.length, 'no message twice');
    assert.deepEqual(dom, stored.filter((u) => dom.includes(u)), 'in the stored order');
    assert.equal(await pane.locator('.chat-text').count(), flood);
    // The view opens at the bottom (the scroller follows late layout: poll).
    await page.waitForFunction(() => {
      const sc = document.querySelector('.pane-chat:not([hidden]) .chat-scroll');
      return sc !== null && sc.scrollHeight - sc.scrollTop - sc.clientHeight <= 48;
    }, null, { timeout: waitMs });

    const input = pane.locator('.chat-input');
    await input.fill('second flood');
    await input.press('Enter');
    await texts(2);
    const storedAfter = await storedUuids(base, 2);
    dom = await shown();
    assert.equal(new Set(dom).size, dom.length, 'no message twice after the live turn');
    assert.deepEqual(dom, storedAfter.filter((u) => dom.includes(u)), 'the live turn after the history');
    assert.equal(await pane.locator('.chat-text').count(), 2 * flood);
    assert.deepEqual(page.errors, [], 'no console errors');
    await page.context().close();
  });
});
