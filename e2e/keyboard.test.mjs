// Keyboard use of the chat and what covers the page (issue 22, item 23):
// Shift+Tab in the message box moves the focus (Alt+M changes the mode, and
// the change is announced); skip links lead past the session list to the
// conversation and the message box; a long conversation is one Tab stop,
// whose buttons, links and code the arrow keys reach; the phone's session
// drawer and the search palette keep Tab inside and give the focus back;
// the terminal tells screen readers how to leave it.
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

/** One turn of 12 steps, each a text with a code block and a Bash call with output: many Copy buttons and disclosures. */
function longTurn() {
  const lines = [{ type: 'system', subtype: 'init', cwd: '{{CWD}}', session_id: sid, tools: ['Bash'], model: 'claude-fake', permissionMode: 'default', uuid: '{{UUID}}' }];
  for (let i = 0; i < 12; i++) {
    lines.push(assistant([{ type: 'text', text: `Step ${i}: see [the docs](https://example.com/${i}).\n\n\`\`\`sh\necho step ${i}\n\`\`\`` }]));
    lines.push(assistant([{ type: 'tool_use', id: `toolu_${i}`, name: 'Bash', input: { command: `echo ${i}`, description: `Step ${i}` } }]));
    lines.push({ type: 'user', message: { role: 'user', content: [{ tool_use_id: `toolu_${i}`, type: 'tool_result', content: `out ${i}`, is_error: false }] }, parent_tool_use_id: null, session_id: sid, uuid: '{{UUID}}' });
  }
  lines.push({ type: 'result', subtype: 'success', is_error: false, duration_ms: 10, num_turns: 1, result: 'done', session_id: sid, total_cost_usd: 0.001, usage, uuid: '{{UUID}}' });
  return lines;
}

describe('keyboard', { timeout: 400_000 }, () => {
  let tmp;
  let server;
  let browser;
  let chat;

  before(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'agentdesk-keyboard-'));
    server = await startWithFakeClaude(tmp, longTurn());
    browser = await launchBrowser();
    const s = await api(server, 'POST', '/api/sessions', { cwd: await server.tempDir(), title: 'keys' });
    chat = { sid: s.id, wid: s.workers.find((w) => w.kind === 'sdk').id };
    await api(server, 'POST', `/api/sessions/${s.id}/workers/${chat.wid}/input`, { content: 'do the steps' });
    const deadline = Date.now() + waitMs;
    for (;;) {
      const r = await api(server, 'GET', `/api/sessions/${s.id}/workers/${chat.wid}/messages?limit=200`);
      if (r.messages.some((m) => m.message.type === 'result')) break;
      if (Date.now() > deadline) throw new Error('the turn never ended');
      await new Promise((res) => setTimeout(res, 100));
    }
  });

  after(async () => {
    await browser?.close();
    await server?.dispose();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  const pane = (page) => page.locator('.pane-chat:not([hidden])');

  /** A description of the focused element. */
  const focused = (page) => page.evaluate(() => {
    const a = document.activeElement;
    if (a === null) return 'nothing';
    const name = a.getAttribute('aria-label') ?? a.textContent.trim().slice(0, 30);
    return `${a.tagName.toLowerCase()}.${[...a.classList].join('.')} "${name}"`;
  });

  async function openChat(opts = desktop) {
    const page = await newPage(browser, opts);
    await signIn(page, server, `/s/${chat.sid}/w/${chat.wid}`);
    await pane(page).locator('.chat-result').waitFor();
    await pane(page).locator('.chat-conn[data-state="open"]').waitFor();
    // The Copy buttons come at an idle moment after the messages.
    await pane(page).locator('.chat-text .copy-btn').last().waitFor({ state: 'attached' }); // on a touch screen it shows when the message is tapped
    return page;
  }

  test('Shift+Tab in the message box moves the focus; Alt+M changes the mode and says so', async () => {
    const page = await openChat();
    const input = pane(page).locator('.chat-input');
    await input.focus();
    await page.keyboard.press('Shift+Tab');
    assert.notEqual(await page.evaluate(() => document.activeElement?.classList.contains('chat-input')), true,
      `Shift+Tab left the focus in the message box (${await focused(page)})`);
    const mode = pane(page).locator('.set-mode');
    assert.match(await mode.textContent(), /^Ask before edits/);
    assert.equal((await api(server, 'GET', `/api/sessions/${chat.sid}/workers/${chat.wid}`)).permissionMode ?? null, null, 'Shift+Tab changed the mode');

    assert.equal(await mode.getAttribute('aria-keyshortcuts'), 'Alt+M');
    await input.focus();
    await page.keyboard.press('Alt+m');
    await page.waitForFunction(() => document.querySelector('.pane-chat:not([hidden]) .set-mode')?.textContent.startsWith('Accept edits'));
    assert.equal((await api(server, 'GET', `/api/sessions/${chat.sid}/workers/${chat.wid}`)).permissionMode, 'acceptEdits');
    await page.waitForFunction(() => [...document.querySelectorAll('[aria-live="polite"]')].some((r) => r.textContent.trim() === 'Permission mode: Accept edits'));
    await page.keyboard.press('Alt+m');
    await page.waitForFunction(() => document.querySelector('.pane-chat:not([hidden]) .set-mode')?.textContent.startsWith('Plan'));
    await page.waitForFunction(() => [...document.querySelectorAll('[aria-live="polite"]')].some((r) => r.textContent.trim() === 'Permission mode: Plan'));
    await page.keyboard.press('Alt+m'); // back to asking
    await page.waitForFunction(() => document.querySelector('.pane-chat:not([hidden]) .set-mode')?.textContent.startsWith('Ask before edits'));
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('skip links lead to the conversation and the message box', async () => {
    const page = await openChat();
    await page.keyboard.press('Tab'); // from the top of a fresh page
    assert.equal(await focused(page), 'a.skip-link "Skip to conversation"');
    const box = await page.locator('.skip-link:focus').boundingBox();
    assert.ok(box !== null && box.y >= 0 && box.x >= 0, 'the focused skip link shows');
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('chat-scroll')), true, await focused(page));

    await page.reload();
    await pane(page).locator('.chat-conn[data-state="open"]').waitFor();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    assert.equal(await focused(page), 'a.skip-link "Skip to message box"');
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('chat-input')), true, await focused(page));

    await page.goto(server.url);
    await page.locator('.conn[data-state="open"]').waitFor();
    await page.keyboard.press('Tab');
    assert.equal(await focused(page), 'a.skip-link "Skip to main content"', 'without a chat, only the main content');
    await page.context().close();
  });

  test('a long conversation is one Tab stop; the arrow keys reach every button, link and code block', async () => {
    const page = await openChat();
    const log = pane(page).locator('.chat-log');
    // What can take the focus now (a closed disclosure's content cannot).
    const controls = await log.evaluate((el) => [...el.querySelectorAll('button, summary, a[href], [tabindex="0"]')].filter((c) => c.checkVisibility()).length);
    assert.ok(controls > 40, `the conversation has ${controls} controls`);

    await pane(page).locator('.chat-scroll').focus();
    const path = [];
    for (let i = 0; i < 10; i++) {
      await page.keyboard.press('Tab');
      path.push(await focused(page));
      if (await page.evaluate(() => document.activeElement?.classList.contains('chat-input'))) break;
    }
    assert.ok(path.length <= 3 && path.at(-1).startsWith('textarea.chat-input'),
      `Tab from the conversation should reach the message box in at most 3 steps, took:\n${path.join('\n')}`);

    // Tab from the scroller enters at the newest control; Shift+Tab goes back.
    await pane(page).locator('.chat-scroll').focus();
    await page.keyboard.press('Tab');
    const inLog = () => page.evaluate(() => document.activeElement?.closest('.chat-log') !== null);
    assert.ok(await inLog(), `Tab from the conversation entered it: ${await focused(page)}`);
    await page.evaluate(() => { document.activeElement.dataset.newest = 'true'; });
    const atNewest = () => page.evaluate(() => document.activeElement?.dataset.newest === 'true');
    await page.keyboard.press('Shift+Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('chat-scroll')), true);

    // Home, then ArrowDown through every control to the newest.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Home');
    assert.ok(await inLog());
    const kind = () => page.evaluate(() => {
      const a = document.activeElement;
      return a.matches('a[href]') ? 'link' : a.matches('summary') ? 'disclosure' : a.matches('pre') ? 'code' : a.matches('.copy-btn') ? 'copy' : a.tagName;
    });
    const kinds = new Set([await kind()]);
    let steps = 0;
    while (!(await atNewest())) {
      await page.keyboard.press('ArrowDown');
      assert.ok(await inLog(), `ArrowDown left the conversation: ${await focused(page)}`);
      kinds.add(await kind());
      if (++steps > controls + 5) assert.fail('ArrowDown never reached the newest control');
    }
    assert.equal(steps, controls - 1, 'ArrowDown goes through every control, oldest to newest');
    for (const k of ['code', 'copy', 'disclosure', 'link']) assert.ok(kinds.has(k), `ArrowDown reached no ${k}: ${[...kinds]}`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('phone: the session drawer keeps Tab inside and gives the focus back', async () => {
    const page = await openChat(phone);
    const menu = page.getByRole('button', { name: 'Sessions', exact: true });
    await menu.click();
    await page.locator('.app[data-drawer="open"]').waitFor();
    const inDrawer = () => page.evaluate(() => document.activeElement?.closest('.sidebar') !== null);
    for (const key of [...Array(12).fill('Tab'), ...Array(6).fill('Shift+Tab')]) {
      await page.keyboard.press(key);
      assert.ok(await inDrawer(), `${key} left the open drawer for ${await focused(page)}`);
    }
    assert.equal(await page.locator('.main').evaluate((el) => el.inert), true, 'the page behind the drawer is inert');
    await page.keyboard.press('Escape');
    await page.locator('.app[data-drawer="closed"]').waitFor();
    assert.equal(await focused(page), 'button.icon-btn.menu-btn "Sessions"');
    assert.equal(await page.locator('.main').evaluate((el) => el.inert), false);
    await page.context().close();
  });

  test('the search palette keeps Tab inside and gives the focus back', async () => {
    const page = await openChat();
    await pane(page).locator('.chat-input').focus();
    await page.keyboard.press('Control+k');
    const dialog = page.locator('dialog.palette[open]');
    await dialog.waitFor();
    await page.keyboard.type('step');
    await dialog.locator('.palette-hit').first().waitFor();
    for (const key of ['Tab', 'Tab', 'Shift+Tab', 'Tab']) {
      await page.keyboard.press(key);
      assert.equal(await page.evaluate(() => document.activeElement?.closest('dialog.palette') !== null), true,
        `${key} left the palette for ${await focused(page)}`);
    }
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('chat-input')), true, await focused(page));
    await page.context().close();
  });

  test('the terminal tells screen readers how to leave it', async () => {
    const term = await api(server, 'POST', `/api/sessions/${chat.sid}/workers`, { kind: 'terminal' });
    const page = await newPage(browser, desktop);
    await signIn(page, server, `/s/${chat.sid}/w/${term.id}`);
    await page.locator('.pane-terminal:not([hidden]) .term-status[data-state="open"]').waitFor();
    const hint = await page.evaluate(() => {
      const ta = document.querySelector('.pane-terminal:not([hidden]) .xterm-helper-textarea');
      const host = ta?.closest('[role="region"]');
      const text = (el) => (el?.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
      return { textarea: text(ta), region: text(host), name: host?.getAttribute('aria-label') };
    });
    for (const where of ['textarea', 'region']) {
      assert.match(hint[where], /Alt\+S/, `the ${where} does not say Alt+S: ${JSON.stringify(hint)}`);
      assert.match(hint[where], /Alt\+P/);
    }
    assert.equal(hint.name, 'Terminal');
    await page.context().close();
  });
});
