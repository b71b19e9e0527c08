// Browser end-to-end for the chat pane of sdk workers, with the real Claude CLI
// (node_modules/.bin/claude) talking to the fake Messages API
// (internal/testkit/fakeapi/cmd/fakeapi) on loopback: a message and its echo, a Bash
// call allowed from the permission dialog (which disappears in a second tab
// too), an AskUserQuestion answered, thinking, a slow turn cancelled, and a reload that
// shows the conversation again with no message twice, its history read over
// REST (the socket replays none of it), also in the middle of a turn. The REST
// history reader and a long conversation are in chat-history.test.mjs.
import assert from 'node:assert/strict';
import { access, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { launchBrowser, newPage } from './browser.mjs';
import { claudeBin, claudeServerOptions, startFakeApi } from './fakeapi.mjs';
import { AgentdeskServer } from './server.mjs';

/** Every wait in this file is bounded by this. */
const waitMs = 30_000;

/** Console noise that is the browser reporting an expected failure. */
const expectedNoise = [/WebSocket connection to .* failed/, /status of 409/];

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
    await dialog.getByRole('button', { name: 'Allow', exact: true }).click();
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
    assert.match(w.socketUrls[0], /[?&]after=[^&]+/, 'the socket connects after the last uuid read');
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
