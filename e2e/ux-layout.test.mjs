// Browser tests of the layout at phone (390×844, touch) and desktop
// (1280×800) size: on every screen nothing sticks out sideways, every
// visible control is what a click at its centre hits, and on the phone
// every control is at least 44 px; the sidebar is a drawer on the phone;
// the theme follows the system and the toggle, terminal and diff included.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { desktop, launchBrowser, newPage, phone } from './browser.mjs';
import { api, chatTurnLines, coveredControls, makeRepo, overflow, signIn, smallTargets, startWithFakeClaude } from './ux.mjs';

const sizes = { phone, desktop };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Runs the three layout checks on the current screen; returns the problems found. */
async function check(page, size, screen) {
  const problems = [];
  for (const o of await overflow(page)) problems.push(`${size}/${screen}: overflow: ${o}`);
  // With the drawer or a dialog open, only their controls are meant to be reached.
  const within = await page.evaluate(() => (document.querySelector('dialog[open]') ? 'dialog[open]'
    : document.querySelector('.app[data-drawer="open"]') ? '#sidebar' : null));
  const { checked, covered } = await coveredControls(page, within);
  if (checked === 0) problems.push(`${size}/${screen}: no control found`);
  for (const c of covered) problems.push(`${size}/${screen}: ${c}`);
  if (size === 'phone') for (const t of await smallTargets(page)) problems.push(`${size}/${screen}: small target ${t}`);
  return problems;
}

describe('layout at phone and desktop size', { timeout: 600_000 }, () => {
  let tmp;
  let server;
  let browser;
  let repo;
  let s;
  let chat;
  let term;
  let diff;

  before(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'agentdesk-ux-layout-'));
    server = await startWithFakeClaude(tmp, chatTurnLines());
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await server?.dispose();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  for (const [size, opts] of Object.entries(sizes)) {
    test(`${size}: the start page without sessions says what to do`, async () => {
      const page = await newPage(browser, opts);
      await signIn(page, server);
      await page.getByRole('heading', { name: 'No sessions yet' }).waitFor();
      const problems = await check(page, size, 'empty');
      await page.getByRole('button', { name: 'Start your first session' }).click();
      await page.locator('#ns-cwd').waitFor({ state: 'visible' });
      assert.equal(await page.evaluate(() => document.activeElement?.id), 'ns-cwd', 'the form takes the focus');
      problems.push(...await check(page, size, 'empty-form'));
      assert.deepEqual(problems, []);
      assert.deepEqual(page.errors, []);
      await page.context().close();
    });
  }

  test('set up: a conversation, a terminal, a diff and a worktree session', async () => {
    repo = await makeRepo(tmp, 'demo-project');
    s = await api(server, 'POST', '/api/sessions', { cwd: repo, title: 'A session with a rather long title for a phone screen' });
    chat = s.workers.find((w) => w.kind === 'sdk');
    diff = s.workers.find((w) => w.kind === 'git-diff');
    await api(server, 'POST', `/api/sessions/${s.id}/workers/${chat.id}/input`, { content: 'Please **fix** it' });
    for (let i = 0; ; i++) {
      const r = await api(server, 'GET', `/api/sessions/${s.id}/workers/${chat.id}/messages?limit=100`);
      if (r.messages.some((m) => m.message.type === 'result')) break;
      assert.ok(i < 300, 'the fake turn ends');
      await sleep(100);
    }
    term = await api(server, 'POST', `/api/sessions/${s.id}/workers`, { kind: 'terminal' });
    await writeFile(path.join(repo, 'main.go'), 'package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Println("' + 'w'.repeat(300) + '")\n}\n');
    await api(server, 'POST', '/api/sessions', { repo, branch: 'feature/phone', worktree: true, title: 'worktree session', agent: 'none' });
  });

  for (const [size, opts] of Object.entries(sizes)) {
    test(`${size}: every screen fits the width and every control can be clicked`, async (t) => {
      if (s === undefined) return t.skip('needs the set-up');
      const page = await newPage(browser, opts);
      const problems = [];
      await signIn(page, server);
      problems.push(...await check(page, size, 'start'));
      if (size === 'phone') {
        await page.getByRole('button', { name: 'Sessions', exact: true }).click();
        await page.locator('.app[data-drawer="open"]').waitFor();
        await sleep(300); // the slide-in transition
        problems.push(...await check(page, size, 'drawer'));
        await page.keyboard.press('Escape');
      }
      await page.goto(`${server.url}/s/${s.id}/w/${chat.id}`);
      await page.locator('.pane-chat:not([hidden]) .chat-result').waitFor();
      problems.push(...await check(page, size, 'chat'));
      await page.locator('.pane-chat:not([hidden]) .chat-scroll').evaluate((el) => (el.scrollTop = el.scrollHeight / 3));
      await page.locator('.pane-chat:not([hidden]) .chat-jump:not([hidden])').waitFor();
      problems.push(...await check(page, size, 'chat-scrolled'));
      await page.goto(`${server.url}/s/${s.id}/w/${term.id}`);
      await page.locator('.pane-terminal:not([hidden]) .term-status[data-state="open"]').waitFor();
      problems.push(...await check(page, size, 'terminal'));
      await page.goto(`${server.url}/s/${s.id}/w/${diff.id}`);
      await page.locator('.pane-diff:not([hidden]) .df-section').first().waitFor();
      problems.push(...await check(page, size, 'diff'));
      await page.getByRole('button', { name: 'Add worker' }).click();
      await page.getByRole('menuitem', { name: 'Shell', exact: true }).waitFor();
      problems.push(...await check(page, size, 'add-menu'));
      await page.keyboard.press('Escape');
      if (size === 'phone') await page.getByRole('button', { name: 'Sessions', exact: true }).click();
      await page.getByRole('button', { name: '+ New session' }).first().click();
      await page.locator('#ns-cwd').fill(repo);
      await page.locator('.ns-worktree:not([hidden])').waitFor();
      await page.locator('#ns-worktree').check();
      problems.push(...await check(page, size, 'new-session-worktree'));
      await page.getByRole('button', { name: 'Cancel' }).click();
      await page.getByRole('button', { name: /^Delete session worktree session/ }).click();
      await page.locator('dialog[open]').waitFor();
      problems.push(...await check(page, size, 'delete-dialog'));
      await page.keyboard.press('Escape');
      await page.locator('dialog[open]').waitFor({ state: 'detached' });
      assert.deepEqual(problems, []);
      assert.deepEqual(page.errors, []);
      await page.context().close();
    });
  }

  test('phone: the sidebar is a drawer: menu, Escape, backdrop, swipe, and opening a session close it', async (t) => {
    if (s === undefined) return t.skip('needs the set-up');
    const page = await newPage(browser, phone);
    await signIn(page, server);
    const menu = page.getByRole('button', { name: 'Sessions', exact: true });
    const inView = () => page.locator('#sidebar').evaluate((el) => {
      const r = el.getBoundingClientRect();
      return r.right > 0 && r.left >= -1 && getComputedStyle(el).visibility !== 'hidden';
    });
    const closed = () => page.locator('.app[data-drawer="closed"]').waitFor();
    await closed();
    assert.equal(await page.locator('#sidebar').evaluate((el) => el.inert), true, 'a closed drawer is out of the tab order');
    assert.equal(await menu.getAttribute('aria-expanded'), 'false');

    await menu.click();
    await page.locator('.app[data-drawer="open"]').waitFor();
    await page.waitForFunction(() => document.getElementById('sidebar').getBoundingClientRect().left >= -1);
    assert.equal(await inView(), true);
    assert.equal(await menu.getAttribute('aria-expanded'), 'true');
    await page.keyboard.press('Escape');
    await closed();
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Sessions', 'focus goes back to the menu button');

    await menu.click();
    await page.locator('.app[data-drawer="open"]').waitFor();
    await page.mouse.click(380, 400); // the backdrop, right of the drawer
    await closed();

    await menu.click();
    await page.locator('.app[data-drawer="open"]').waitFor();
    await page.locator('#sidebar').evaluate((el) => {
      const touch = (x) => new Touch({ identifier: 1, target: el, clientX: x, clientY: 300 });
      el.dispatchEvent(new TouchEvent('touchstart', { touches: [touch(250)], changedTouches: [touch(250)], bubbles: true }));
      el.dispatchEvent(new TouchEvent('touchend', { touches: [], changedTouches: [touch(120)], bubbles: true }));
    });
    await closed();

    await menu.click();
    await page.locator('.app[data-drawer="open"]').waitFor();
    await page.locator('.session-link', { hasText: 'A session with a rather long title' }).click();
    await closed();
    await page.locator('.session-heading', { hasText: 'A session with a rather long title' }).waitFor();
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('phone: the tab strip scrolls and a new tab is scrolled into view', async (t) => {
    if (s === undefined) return t.skip('needs the set-up');
    const page = await newPage(browser, phone);
    await signIn(page, server, `/s/${s.id}/w/${chat.id}`);
    await page.locator('.pane-chat:not([hidden]) .chat-result').waitFor();
    for (let i = 0; i < 3; i++) {
      const before = page.url();
      await page.getByRole('button', { name: 'Add worker' }).click();
      await page.getByRole('menuitem', { name: 'Shell', exact: true }).click();
      // The previous terminal's pane is open too until the route moves to
      // the new worker: wait for the route first.
      await page.waitForURL((u) => u.href !== before);
      const wid = new URL(page.url()).pathname.split('/').pop();
      await page.locator(`#pane-${wid} .term-status[data-state="open"]`).waitFor();
      // Wait for the scroll to settle, then check that the whole tab is inside the strip.
      await page.waitForFunction((id) => {
        const strip = document.querySelector('.tabs').getBoundingClientRect();
        const tab = document.querySelector(`.tab[data-wid="${id}"]`)?.getBoundingClientRect();
        return tab !== undefined && tab.left >= strip.left - 1 && tab.right <= strip.right + 1;
      }, wid);
    }
    const scrolls = await page.locator('.tabs').evaluate((el) => el.scrollWidth > el.clientWidth && el.scrollLeft > 0);
    assert.equal(scrolls, true, 'the strip is wider than the screen and scrolled');
    assert.deepEqual(await overflow(page), []);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('empty states say what to do next: a session without workers, a diff without changes', async () => {
    const bare = await api(server, 'POST', '/api/sessions', { cwd: await makeRepo(tmp, 'clean'), agent: 'none', title: 'bare' });
    const page = await newPage(browser, desktop);
    await signIn(page, server, `/s/${bare.id}`);
    const d = bare.workers.find((w) => w.kind === 'git-diff');
    await page.locator('.dd-message', { hasText: 'No changes against' }).waitFor();
    assert.match(await page.locator('.dd-message').innerText(), /show up here as they happen/);
    await page.getByRole('button', { name: `Close ${d.name}` }).click();
    await page.locator('dialog[open]').getByRole('button', { name: 'Close worker' }).click();
    await page.getByRole('heading', { name: 'No workers in this session yet' }).waitFor();
    assert.match(await page.locator('.empty-pane').innerText(), /Add one with the \+ button/);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('the theme follows the system, the toggle overrides it, and terminal and diff follow', async (t) => {
    if (s === undefined) return t.skip('needs the set-up');
    const page = await newPage(browser, { ...desktop, colorScheme: 'light' });
    await signIn(page, server, `/s/${s.id}/w/${term.id}`);
    await page.locator('.pane-terminal:not([hidden]) .term-status[data-state="open"]').waitFor();
    const theme = () => page.evaluate(() => document.documentElement.dataset.theme);
    const termFg = () => page.locator('.pane-terminal:not([hidden]) .xterm-rows').evaluate((el) => getComputedStyle(el).color);
    const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    assert.equal(await theme(), 'light', 'a light system gives the light theme');
    assert.equal(await bg(), 'rgb(255, 255, 255)');
    assert.equal(await termFg(), 'rgb(31, 35, 40)', 'the terminal uses the light palette');

    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    assert.equal(await termFg(), 'rgb(215, 220, 229)', 'the terminal follows to the dark palette');

    const toggle = page.locator('.theme-toggle');
    assert.equal(await toggle.innerText(), '◐ Auto');
    await toggle.click();
    assert.equal(await toggle.innerText(), '☀ Light');
    assert.equal(await theme(), 'light', 'the toggle overrides a dark system');
    assert.equal(await termFg(), 'rgb(31, 35, 40)');
    await page.goto(`${server.url}/s/${s.id}/w/${diff.id}`);
    await page.locator('.pane-diff:not([hidden]) .dl-add').first().waitFor();
    const addBg = () => page.locator('.pane-diff:not([hidden]) .dl-add').first().evaluate((el) => getComputedStyle(el).backgroundColor);
    const lightAdd = await addBg();
    assert.equal(await theme(), 'light', 'the choice survives a reload');
    await page.locator('.theme-toggle').click();
    assert.equal(await theme(), 'dark');
    assert.notEqual(await addBg(), lightAdd, 'the diff colours follow the theme');
    await page.locator('.theme-toggle').click();
    assert.equal(await page.locator('.theme-toggle').innerText(), '◐ Auto');
    assert.equal(await theme(), 'dark', 'back to the (dark) system setting');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});
