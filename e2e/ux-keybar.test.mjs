// Browser tests of the terminal pane's chrome: the key bar sends the bytes
// a terminal expects (checked through `cat -A` in a real shell, which shows
// ESC as ^[ and Tab as ^I) without taking the focus from the terminal; it
// is there by default on touch screens and behind "⌨ Keys" on desktops;
// the status pill sits in the pane's header, not over terminal text; and a
// program that has drawn nothing yet shows a "starting" cover.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { desktop, launchBrowser, newPage, phone, terminalLines, waitForTerminalLine } from './browser.mjs';
import { AgentdeskServer } from './server.mjs';
import { api, signIn } from './ux.mjs';

const pane = '.pane-terminal:not([hidden])';

describe('the terminal key bar and pane header', { timeout: 300_000 }, () => {
  let server;
  let browser;
  let sid;

  before(async () => {
    server = await AgentdeskServer.start({ env: { SHELL: '/bin/bash' } });
    browser = await launchBrowser();
    const s = await api(server, 'POST', '/api/sessions', { cwd: await server.tempDir(), agent: 'none', title: 'keys' });
    sid = s.id;
  });

  after(async () => {
    await browser?.close();
    await server?.dispose();
  });

  /** Opens a new terminal worker in a page of the given size, with `cat -A` reading. */
  async function catTerminal(opts) {
    const w = await api(server, 'POST', `/api/sessions/${sid}/workers`, { kind: 'terminal', command: ['cat', '-A'] });
    const page = await newPage(browser, opts);
    await signIn(page, server, `/s/${sid}/w/${w.id}`);
    await page.locator(`${pane} .term-status[data-state="open"]`).waitFor();
    await page.locator(`${pane} .xterm-helper-textarea`).focus();
    await page.keyboard.type('ready');
    await page.keyboard.press('Enter');
    await waitForTerminalLine(page, 'ready$');
    return page;
  }

  const focusInTerminal = (page) => page.evaluate(() => document.activeElement?.classList.contains('xterm-helper-textarea') === true);

  test('phone: the key bar is shown, sends Esc, Tab, Shift+Tab, sticky Ctrl, arrows, | ~ / and keeps the focus', async () => {
    const page = await catTerminal(phone);
    const bar = page.locator(`${pane} .keybar`);
    assert.equal(await bar.isVisible(), true, 'shown by default on a touch screen');
    const key = (name) => bar.getByRole('button', { name, exact: true });
    for (const name of ['Esc (Escape)', 'Tab', 'Shift+Tab (Claude Code: next mode)']) await key(name).tap();
    await key('Ctrl (Control, applies to the next key)').tap();
    assert.equal(await key('Ctrl (Control, applies to the next key)').getAttribute('aria-pressed'), 'true', 'Ctrl sticks');
    await page.keyboard.type('a'); // from the keyboard: goes as Ctrl+A
    assert.equal(await key('Ctrl (Control, applies to the next key)').getAttribute('aria-pressed'), 'false', 'Ctrl applies once');
    for (const name of ['Up', 'Down', 'Left', 'Right', '|', '~', '/']) await key(name).tap();
    assert.equal(await focusInTerminal(page), true, 'the terminal keeps the focus (the on-screen keyboard stays)');
    await page.keyboard.press('Enter');
    // cat -A: ESC ^[, Tab ^I, Ctrl+A ^A, end of line $. Arrows as the cursor mode says (CSI or SS3).
    const want = /^\^\[\^I\^\[\[Z\^A\^\[(\[|O)A\^\[(\[|O)B\^\[(\[|O)D\^\[(\[|O)C\|~\/\$$/;
    await page.waitForFunction((src) => {
      const re = new RegExp(src);
      const rows = document.querySelector('.pane-terminal:not([hidden]) .xterm-rows');
      return !!rows && [...rows.children].some((r) => re.test(r.textContent.replace(/\u00a0/g, ' ').trim()));
    }, want.source).catch(async (err) => {
      throw new Error(`no line matching ${want}; terminal:\n${(await terminalLines(page)).join('\n')}\n${err.message}`);
    });
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('desktop: the key bar is behind "⌨ Keys"; the choice is remembered', async () => {
    const page = await catTerminal(desktop);
    const bar = page.locator(`${pane} .keybar`);
    const toggle = page.locator(`${pane} .keys-toggle`);
    assert.equal(await bar.isVisible(), false, 'hidden by default with a mouse and keyboard');
    assert.equal(await toggle.getAttribute('aria-pressed'), 'false');
    await toggle.click();
    await bar.waitFor();
    await bar.getByRole('button', { name: 'Shift+Tab (Claude Code: next mode)' }).click();
    assert.equal(await focusInTerminal(page), true, 'a mouse click on a key keeps the focus too');
    await page.keyboard.press('Enter');
    await waitForTerminalLine(page, '^[[Z$');
    await page.reload();
    await page.locator(`${pane} .term-status[data-state="open"]`).waitFor();
    assert.equal(await page.locator(`${pane} .keybar`).isVisible(), true, 'remembered after a reload');
    await page.locator(`${pane} .keys-toggle`).click();
    assert.equal(await page.locator(`${pane} .keybar`).isVisible(), false);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  for (const [size, opts] of [['phone', phone], ['desktop', desktop]]) {
    test(`${size}: the status pill is in the pane header, above the terminal text`, async () => {
      const page = await catTerminal(opts);
      const pill = await page.locator(`${pane} .term-status`).boundingBox();
      const screen = await page.locator(`${pane} .xterm-screen`).boundingBox();
      assert.ok(pill !== null && screen !== null);
      assert.ok(pill.y + pill.height <= screen.y + 0.5, `the pill (bottom ${pill.y + pill.height}) ends above the terminal (top ${screen.y})`);
      assert.equal(await page.locator(`${pane} .pane-bar .term-status`).count(), 1, 'the pill is in the header');
      await page.context().close();
    });
  }

  test('a program that has drawn nothing yet shows "starting", until its first character', async () => {
    // bash -c 'read' draws nothing until a line is typed: no prompt, no output.
    const w = await api(server, 'POST', `/api/sessions/${sid}/workers`, { kind: 'terminal', command: ['bash', '-c', 'read -r x; echo "drawn-$x"; read -r y'] });
    const page = await newPage(browser, desktop);
    await signIn(page, server, `/s/${sid}/w/${w.id}`);
    await page.locator(`${pane} .term-status[data-state="open"]`).waitFor();
    const cover = page.locator(`${pane} .term-starting`);
    await cover.waitFor();
    assert.match(await cover.innerText(), /Starting the shell/);
    await page.locator(`${pane} .xterm-helper-textarea`).focus();
    await page.keyboard.type('ok');
    await page.keyboard.press('Enter');
    await waitForTerminalLine(page, 'drawn-ok');
    await cover.waitFor({ state: 'hidden' });
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});
