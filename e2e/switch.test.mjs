// Browser end-to-end for moving a session's Claude conversation between the
// chat (sdk worker) and Claude's own terminal UI (pty-agent worker), with the
// real CLI talking to the fake Messages API: a chat turn, "Open in terminal"
// and a turn typed in the TUI, "Back to chat" showing both earlier turns
// (the terminal one marked), and a chat turn that carries the whole history.
// Stopped agent workers fold into the tab bar's History menu.
import assert from 'node:assert/strict';
import { access, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { launchBrowser, newPage, terminalLines } from './browser.mjs';
import { claudeBin, claudeServerOptions, startFakeApi } from './fakeapi.mjs';
import { AgentdeskServer } from './server.mjs';

/**
 * Every wait in this file is bounded by this, a guard only: a switch stops
 * one CLI and starts another, which took over 30 s once on a loaded 2-core
 * machine (4 busy loops beside the suite).
 */
const waitMs = 90_000;
const echoRe = (text) => new RegExp(`Echo: ${text} \\(request had (\\d+) messages\\)`);
const expectedNoise = [/WebSocket connection to .* failed/, /status of 409/];

describe('switching between chat and terminal with the real Claude CLI', { timeout: 300_000 }, () => {
  let tmp;
  let api;
  let server;
  let browser;
  let page;
  /** Messages in the request of the last echo. */
  let lastCount = 0;

  before(async () => {
    await access(claudeBin);
    tmp = await mkdtemp(path.join(os.tmpdir(), 'agentdesk-switch-e2e-'));
    api = await startFakeApi(tmp);
    server = await AgentdeskServer.start(claudeServerOptions(api.url));
    browser = await launchBrowser();
    page = await newPage(browser);
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

  const chat = () => page.locator('.pane-chat:not([hidden])');
  const terminalText = async () => (await terminalLines(page)).join('\n');

  /** Fails with what the page, the server and the fake API show. */
  async function explain(what, err) {
    const shown = await page.locator('.pane-area').innerText().catch(() => '');
    return new Error(`${what}: ${err.message}\npage:\n${shown}\nterminal:\n${await terminalText().catch(() => '')}\n` +
      `server:\n${server.output}\nfake API:\n${api.log().slice(-5000)}`);
  }

  /** Sends text in the visible chat and returns N of its echo. */
  async function chatTurn(text) {
    const input = chat().locator('.chat-input');
    await page.waitForFunction(() => {
      const el = document.querySelector('.pane-chat:not([hidden]) .chat-input');
      return el !== null && !el.disabled;
    }, null, { timeout: waitMs });
    await input.fill(text);
    await input.press('Enter');
    const echo = chat().locator('.chat-text', { hasText: echoRe(text) });
    try {
      await echo.waitFor({ timeout: waitMs });
    } catch (err) {
      throw await explain(`no echo of ${JSON.stringify(text)}`, err);
    }
    return Number(echoRe(text).exec(await echo.innerText())[1]);
  }

  /** Waits until the visible terminal's text matches re; returns the match. */
  async function waitTerminal(re, ms = waitMs) {
    const deadline = Date.now() + ms;
    for (;;) {
      const m = re.exec(await terminalText());
      if (m !== null) return m;
      if (Date.now() > deadline) throw await explain(`terminal never showed ${re}`, new Error('timeout'));
      await page.waitForTimeout(200);
    }
  }

  test('a chat turn', async () => {
    await page.goto(`${server.url}/?token=${server.token}`);
    await page.locator('.conn[data-state="open"]').waitFor({ timeout: waitMs });
    const cwd = await mkdtemp(path.join(tmp, 'work-'));
    await page.keyboard.press('Alt+N');
    await page.locator('#ns-cwd').fill(cwd);
    await page.locator('#ns-title').fill('switch e2e');
    await page.locator('#ns-agent').selectOption('sdk');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/\/s\/[^/]+/, { timeout: waitMs });
    await chat().locator('.chat-conn[data-state="open"]').waitFor({ timeout: waitMs });
    lastCount = await chatTurn('hello');
    assert.ok(lastCount >= 1);
  });

  test('Open in terminal: Claude’s TUI takes a turn', async () => {
    await page.getByRole('button', { name: 'Open in terminal' }).click();
    await page.locator('.tab.selected[data-kind="pty-agent"]', { hasText: 'Terminal' }).waitFor({ timeout: waitMs });
    await page.locator('.pane-terminal:not([hidden])').waitFor({ timeout: waitMs });
    await waitTerminal(/\? for shortcuts|❯|│ >/);
    // The "starting" cover went once the TUI drew its screen.
    await page.locator('.pane-terminal:not([hidden]) .term-starting').waitFor({ state: 'hidden', timeout: waitMs });
    assert.doesNotMatch(await terminalText(), /trust this folder|Do you trust/i, 'no trust dialog');
    // The old chat stays, read-only, folded into the History menu.
    await page.locator('.history-btn', { hasText: 'History (1)' }).waitFor({ timeout: waitMs });

    await page.locator('.pane-terminal:not([hidden]) .xterm').click();
    await page.keyboard.type('from the terminal');
    await waitTerminal(/from the terminal/);
    await page.keyboard.press('Enter');
    // The TUI may take the first Enter before it is ready: press again, a bounded number of times.
    let m = null;
    for (let i = 0; i < 3 && m === null; i++) {
      try {
        m = await waitTerminal(echoRe('from the terminal'), 10_000);
      } catch (err) {
        if (i === 2) throw err;
        await page.keyboard.press('Enter');
      }
    }
    const n = Number(m[1]);
    assert.ok(n > lastCount, `the terminal turn carries the chat history (${n} > ${lastCount})`);
    lastCount = n;
  });

  test('a reload replays the TUI without answering its old queries', async () => {
    // Every input frame the page sends to a worker socket from now on.
    const sent = [];
    page.on('websocket', (ws) => ws.on('framesent', (f) => {
      if (typeof f.payload === 'string' && f.payload.includes('"type":"input"')) sent.push(JSON.parse(f.payload).data);
    }));
    await page.reload();
    await page.locator('.pane-terminal:not([hidden]) .term-status[data-state="open"]').waitFor({ timeout: waitMs });
    await waitTerminal(echoRe('from the terminal'));
    await page.locator('.pane-terminal:not([hidden]) .xterm').click();
    await page.keyboard.type('zz');
    // Parsed after every replayed byte: xterm's answers to the old queries would have been sent by now.
    await waitTerminal(/zz/);
    // Answers: device attributes (CSI ? … c, CSI > … c), kitty keyboard (CSI ? … u),
    // DCS (XTVERSION), OSC (colours), cursor position (CSI … R). Clicks and focus may report.
    const answers = sent.filter((d) => /\x1b\[[?>][\d;]*[cu]|\x1bP|\x1b\]|\x1b\[\d+;\d+R/.test(d));
    assert.deepEqual(answers, [], 'no answers to replayed queries reach the TUI');
    assert.deepEqual(sent.filter((d) => d === 'z'), ['z', 'z'], 'the typed keys do');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');
  });

  test('Back to chat: both earlier turns, then a turn with all of them', async () => {
    const terminalTab = await page.locator('.tab.selected').getAttribute('data-wid');
    await page.getByRole('button', { name: 'Back to chat' }).click();
    await page.locator(`.tab.selected[data-kind="sdk"]:not([data-wid="${terminalTab}"])`, { hasText: 'Chat' }).waitFor({ timeout: waitMs });
    try {
      await chat().locator('.chat-user', { hasText: 'hello' }).waitFor({ timeout: waitMs });
      await chat().locator('.chat-user.from-terminal', { hasText: 'from the terminal' }).waitFor({ timeout: waitMs });
      await chat().locator('.chat-imported', { hasText: /\d+ earlier messages? from this conversation/ }).waitFor({ timeout: waitMs });
    } catch (err) {
      throw await explain('the new chat lacks the imported history', err);
    }
    assert.equal(await chat().locator('.chat-user.from-terminal .chat-source').first().innerText(), 'from terminal');
    assert.equal(await chat().locator('.chat-user', { hasText: 'hello' }).locator('.chat-source').count(), 0,
      'a chat turn has no terminal badge');
    assert.equal(await page.locator('.history-btn').innerText(), 'History (2)', 'the first chat and the terminal are read-only, in History');

    const n = await chatTurn('after switch');
    assert.ok(n > lastCount, `the chat turn carries the terminal turn too (${n} > ${lastCount})`);

    // The first chat tab: its history is readable, its composer disabled with a hint.
    await page.locator('.history-btn').click();
    await page.locator('.history-item[data-kind="sdk"]', { hasText: /^Chat · / }).click();
    await page.locator('.tab.selected.read-only').waitFor({ timeout: waitMs });
    const old = chat();
    await old.locator('.chat-text', { hasText: echoRe('hello') }).waitFor({ timeout: waitMs });
    assert.equal(await old.locator('.chat-input').isDisabled(), true);
    assert.match(await old.innerText(), /no longer drives the conversation/);
    assert.deepEqual(page.errors.filter((e) => !expectedNoise.some((re) => re.test(e))), [], 'no console errors');
  });
});
