// Browser tests of the chat's first minutes, with the fake CLI playing a
// scripted turn: focus in the message box after a session is created, the
// user's own markdown rendered, "turn started" between sending and the
// first token, the jump to the bottom on send, the "New messages ↓" pill,
// and the copy buttons of messages, code blocks and tool output.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { desktop, launchBrowser, newPage, phone } from './browser.mjs';
import { api, chatTurnLines, signIn, startWithFakeClaude } from './ux.mjs';

const chat = '.pane-chat:not([hidden])';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

describe('chat: the first minutes', { timeout: 400_000 }, () => {
  let tmp;
  let server;
  let browser;

  before(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'agentdesk-ux-chat-'));
    server = await startWithFakeClaude(tmp, chatTurnLines());
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await server?.dispose();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  /** Creates a chat session through the form; returns its ids from the URL. */
  async function createInForm(page, title) {
    if (await page.locator('.menu-btn').isVisible()) await page.locator('.menu-btn').click();
    await page.getByRole('button', { name: '+ New session' }).first().click();
    await page.locator('#ns-cwd').fill(await server.tempDir());
    await page.locator('#ns-title').fill(title);
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/\/s\/[^/]+\/w\/[^/]+$/);
    const [, sid, wid] = /\/s\/([^/]+)\/w\/([^/]+)$/.exec(page.url());
    return { sid, wid };
  }

  const gap = (page) => page.locator(`${chat} .chat-scroll`).evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);

  for (const [size, opts] of [['phone', phone], ['desktop', desktop]]) {
    test(`${size}: after creating a session the focus is in the message box`, async () => {
      const page = await newPage(browser, opts);
      await signIn(page, server);
      await createInForm(page, `focus ${size}`);
      await page.waitForFunction(() => document.activeElement?.classList.contains('chat-input') === true);
      await page.keyboard.type('typed right away');
      assert.equal(await page.locator(`${chat} .chat-input`).inputValue(), 'typed right away');
      assert.deepEqual(page.errors, []);
      await page.context().close();
    });
  }

  test('the turn shows as started between sending and the first token; the user’s markdown is rendered', async () => {
    const page = await newPage(browser, desktop);
    await signIn(page, server);
    const { wid } = await createInForm(page, 'turn started');
    // Hold the server's frames once the message went out, to look at the wait.
    let hold = false;
    const held = [];
    let client = null;
    await page.routeWebSocket(new RegExp(`/ws/sessions/[^/]+/workers/${wid}`), (ws) => {
      const srv = ws.connectToServer();
      client = ws;
      ws.onMessage((m) => {
        srv.send(m);
        if (typeof m === 'string' && m.includes('"user-message"')) hold = true;
      });
      srv.onMessage((m) => (hold ? held.push(m) : ws.send(m)));
    });
    await page.reload(); // the chat socket now goes through the route
    const input = page.locator(`${chat} .chat-input`);
    await page.waitForFunction(() => document.querySelector('.pane-chat:not([hidden]) .chat-input')?.disabled === false);
    await input.fill('Please **fix** the `login` flow');
    await input.press('Enter');
    const started = page.locator(`${chat} .chat-turn-start`);
    await started.waitFor();
    assert.match(await started.innerText(), /Turn started/);
    hold = false;
    for (const m of held.splice(0)) client.send(m);
    await page.locator(`${chat} .chat-result`).waitFor();
    await started.waitFor({ state: 'hidden' });
    const bubble = page.locator(`${chat} .chat-user`).last();
    assert.equal(await bubble.locator('.md strong').innerText(), 'fix', 'bold from the server-side markdown');
    assert.equal(await bubble.locator('.md code').innerText(), 'login');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('sending while scrolled up jumps to the bottom; output arriving meanwhile shows "New messages ↓"', async () => {
    const page = await newPage(browser, phone);
    await signIn(page, server);
    const { sid, wid } = await createInForm(page, 'scrolling');
    const input = page.locator(`${chat} .chat-input`);
    await page.waitForFunction(() => document.querySelector('.pane-chat:not([hidden]) .chat-input')?.disabled === false);
    await input.fill('first');
    await page.locator(`${chat} .chat-send`).click();
    await page.locator(`${chat} .chat-result`).waitFor();
    const scroller = page.locator(`${chat} .chat-scroll`);
    const jump = page.locator(`${chat} .chat-jump`);

    await scroller.evaluate((el) => (el.scrollTop = 0));
    await jump.waitFor();
    assert.equal(await jump.innerText(), 'Jump to latest ↓');
    await input.fill('second');
    await page.locator(`${chat} .chat-send`).click();
    await page.waitForFunction(() => {
      const el = document.querySelector('.pane-chat:not([hidden]) .chat-scroll');
      return el.scrollHeight - el.scrollTop - el.clientHeight < 48;
    });
    await jump.waitFor({ state: 'hidden' });
    await page.locator(`${chat} .chat-result`).nth(1).waitFor();

    await scroller.evaluate((el) => (el.scrollTop = 0));
    await jump.waitFor();
    // Output from elsewhere (another tab, the REST API) while scrolled up.
    await api(server, 'POST', `/api/sessions/${sid}/workers/${wid}/input`, { content: 'third, from elsewhere' });
    await page.locator(`${chat} .chat-result`).nth(2).waitFor();
    await page.waitForFunction(() => document.querySelector('.pane-chat:not([hidden]) .chat-jump')?.textContent === 'New messages ↓');
    assert.ok(await gap(page) > 48, 'the view stayed where the reader was');
    await jump.click();
    await jump.waitFor({ state: 'hidden' });
    assert.ok(await gap(page) < 48, 'the pill goes to the bottom');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('phone: the message box grows with its text and stays above a shrinking viewport (the on-screen keyboard)', async () => {
    const page = await newPage(browser, phone);
    await signIn(page, server);
    await createInForm(page, 'keyboard');
    const input = page.locator(`${chat} .chat-input`);
    await page.waitForFunction(() => document.querySelector('.pane-chat:not([hidden]) .chat-input')?.disabled === false);
    const h0 = (await input.boundingBox()).height;
    await input.fill('one\ntwo\nthree\nfour');
    await page.waitForFunction((h) => document.querySelector('.pane-chat:not([hidden]) .chat-input').getBoundingClientRect().height > h + 20, h0);
    await input.fill('x\n'.repeat(40));
    const tall = (await input.boundingBox()).height;
    assert.ok(tall <= 222, `it stops growing (${tall}px) and scrolls instead`);
    // A keyboard takes the lower part of the screen: the visual viewport shrinks.
    await page.setViewportSize({ width: 390, height: 420 });
    await page.waitForFunction(() => {
      const form = document.querySelector('.pane-chat:not([hidden]) .chat-composer').getBoundingClientRect();
      const vv = window.visualViewport;
      return form.bottom <= vv.offsetTop + vv.height + 1 && form.top >= 0;
    });
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('copy buttons copy a message’s markdown, a code block, and a tool’s whole output', async () => {
    const page = await newPage(browser, { ...desktop, permissions: ['clipboard-read', 'clipboard-write'] });
    await signIn(page, server);
    await createInForm(page, 'copying');
    const input = page.locator(`${chat} .chat-input`);
    await page.waitForFunction(() => document.querySelector('.pane-chat:not([hidden]) .chat-input')?.disabled === false);
    await input.fill('copy **this**');
    await input.press('Enter');
    await page.locator(`${chat} .chat-result`).waitFor();
    const clip = () => page.evaluate(() => navigator.clipboard.readText());
    const turn = chatTurnLines();

    await page.locator(`${chat} .chat-user .copy-btn`).click();
    assert.equal(await clip(), 'copy **this**', 'the user message as typed');
    const first = page.locator(`${chat} .chat-text`).first();
    await first.locator('.msg-tools .copy-btn').click();
    assert.equal(await clip(), turn[1].message.content[0].text, 'the assistant message as markdown');
    await first.locator('.code-wrap .copy-btn').click();
    assert.match(await clip(), /^func main\(\) \{\n\tfmt\.Println\("a very long line/, 'the code block');
    assert.equal(await first.locator('.code-wrap .copy-btn').innerText(), 'Copied');
    await page.locator(`${chat} .tool-result .copy-btn`).click();
    const out = await clip();
    assert.equal(out, turn[3].message.content[0].content, 'the whole tool output, also the part not shown');
    assert.equal(out.split('\n').length, 60);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});
