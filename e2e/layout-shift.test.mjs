// Opening a chat does not shift its layout (issue 22, item 24): a
// conversation of about 100 messages, opened by its address and from the
// session list, at desktop and phone size, adds up to a cumulative layout
// shift below 0.1 (a PerformanceObserver of 'layout-shift' entries, those
// right after input left out, as CLS does). The copy buttons used to go in
// at an idle moment after the first paint, pushing the messages in view
// (0.19 at desktop size, 0.52 on a phone).
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { desktop, launchBrowser, newPage, phone, waitMs } from './browser.mjs';
import { api, signIn, startWithFakeClaude } from './ux.mjs';

const sid = '{{SESSION_ID}}';
const usage = { input_tokens: 1, output_tokens: 1 };
const assistant = (content) => ({ type: 'assistant', message: { id: 'msg_{{UUID}}', type: 'message', role: 'assistant', model: 'claude-fake', content, stop_reason: null, usage }, parent_tool_use_id: null, session_id: sid, uuid: '{{UUID}}' });

/** A turn of 100 messages: text with code, a Bash call, its output, and again. */
function longTurn() {
  const lines = [{ type: 'system', subtype: 'init', cwd: '{{CWD}}', session_id: sid, tools: ['Bash'], model: 'claude-fake', permissionMode: 'default', uuid: '{{UUID}}' }];
  for (let i = 0; i < 33; i++) {
    lines.push(assistant([{ type: 'text', text: `Message ${i}: some **markdown**.\n\n\`\`\`go\nfunc f${i}() int { return ${i} }\n\`\`\`` }]));
    lines.push(assistant([{ type: 'tool_use', id: `toolu_${i}`, name: 'Bash', input: { command: `ls ${i}` } }]));
    lines.push({ type: 'user', message: { role: 'user', content: [{ tool_use_id: `toolu_${i}`, type: 'tool_result', content: `file${i}\nother${i}`, is_error: false }] }, parent_tool_use_id: null, session_id: sid, uuid: '{{UUID}}' });
  }
  lines.push({ type: 'result', subtype: 'success', is_error: false, duration_ms: 10, num_turns: 1, result: 'done', session_id: sid, total_cost_usd: 0.001, usage, uuid: '{{UUID}}' });
  return lines;
}

/** Collects layout shifts from the start of every document of the page. */
function recordShifts() {
  window.__shifts = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.hadRecentInput) continue;
      const where = e.sources.map((s) => s.node instanceof Element ? `${s.node.tagName.toLowerCase()}.${[...s.node.classList].join('.')}` : '?');
      window.__shifts.push({ value: e.value, where: where.slice(0, 3).join(', ') });
    }
  }).observe({ type: 'layout-shift', buffered: true });
}

describe('layout shift when a chat opens', { timeout: 300_000 }, () => {
  let tmp;
  let server;
  let browser;
  let chat;

  before(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'agentdesk-cls-'));
    server = await startWithFakeClaude(tmp, longTurn());
    browser = await launchBrowser();
    const s = await api(server, 'POST', '/api/sessions', { cwd: await server.tempDir(), title: 'long chat' });
    chat = { sid: s.id, wid: s.workers.find((w) => w.kind === 'sdk').id };
    await api(server, 'POST', `/api/sessions/${s.id}/workers/${chat.wid}/input`, { content: 'go' });
    const deadline = Date.now() + waitMs;
    for (;;) {
      const r = await api(server, 'GET', `/api/sessions/${s.id}/workers/${chat.wid}/messages?limit=300`);
      if (r.messages.some((m) => m.message.type === 'result')) {
        assert.ok(r.messages.length >= 100, `${r.messages.length} messages`);
        break;
      }
      if (Date.now() > deadline) throw new Error('the turn never ended');
      await new Promise((res) => setTimeout(res, 100));
    }
  });

  after(async () => {
    await browser?.close();
    await server?.dispose();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  /** Waits until the chat is built, decorated and settled, then reads the shifts. */
  async function shifts(page) {
    const pane = page.locator('.pane-chat:not([hidden])');
    await pane.locator('.chat-result').waitFor();
    await pane.locator('.chat-conn[data-state="open"]').waitFor();
    await pane.locator('.chat-text .copy-btn').last().waitFor({ state: 'attached' }); // a touch screen shows it when the message is tapped
    // Two more frames: a shift is reported after the frame that made it.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const atBottom = await pane.locator('.chat-scroll').evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight < 50);
    assert.ok(atBottom, 'the chat opens at its newest message');
    return page.evaluate(() => window.__shifts);
  }

  for (const [size, opts] of [['desktop', desktop], ['phone', phone]]) {
    test(`${size}: opening a chat of 100 messages shifts the layout by less than 0.1`, async () => {
      const page = await newPage(browser, opts);
      await signIn(page, server);
      await page.addInitScript(recordShifts);

      await page.goto(`${server.url}/s/${chat.sid}/w/${chat.wid}`);
      const direct = await shifts(page);
      const cls = direct.reduce((a, s) => a + s.value, 0);
      assert.ok(cls < 0.1, `opened by its address, cumulative layout shift ${cls.toFixed(3)}:\n${direct.map((s) => `${s.value.toFixed(4)} ${s.where}`).join('\n')}`);

      await page.goto(server.url);
      await page.locator('.conn[data-state="open"]').waitFor();
      if (size === 'phone') await page.getByRole('button', { name: 'Sessions', exact: true }).click();
      await page.evaluate(() => { window.__shifts = []; });
      await page.locator('.session-link', { hasText: 'long chat' }).click();
      const opened = await shifts(page);
      const cls2 = opened.reduce((a, s) => a + s.value, 0);
      assert.ok(cls2 < 0.1, `opened from the session list, cumulative layout shift ${cls2.toFixed(3)}:\n${opened.map((s) => `${s.value.toFixed(4)} ${s.where}`).join('\n')}`);
      assert.deepEqual(page.errors, []);
      await page.context().close();
    });
  }
});
