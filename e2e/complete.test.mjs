// Browser tests of completion in the composer, with the real Claude CLI
// (its slash commands come from its initialize answer) against the fake
// Messages API: `/com` + arrows + Enter puts `/compact ` in the box, `@` +
// part of a file name + Tab puts the path, Escape only closes the list, a
// tap picks on a phone. Screenshots of the open list (light and dark,
// desktop and phone) go to $SHOTS_DIR when it is set.
import assert from 'node:assert/strict';
import { access, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { desktop, launchBrowser, newPage, phone } from './browser.mjs';
import { claudeBin, claudeServerOptions, startFakeApi } from './fakeapi.mjs';
import { AgentdeskServer } from './server.mjs';
import { api, git, makeRepo, overflow, signIn } from './ux.mjs';

const chat = '.pane-chat:not([hidden])';
const shots = process.env.SHOTS_DIR;

describe('completion in the composer', { timeout: 300_000 }, () => {
  let tmp;
  let fake;
  let server;
  let browser;
  let session;

  before(async () => {
    await access(claudeBin); // fails loudly when node_modules is not installed
    tmp = await mkdtemp(path.join(os.tmpdir(), 'agentdesk-complete-e2e-'));
    fake = await startFakeApi(tmp);
    server = await AgentdeskServer.start(claudeServerOptions(fake.url));
    browser = await launchBrowser();
    const repo = await makeRepo(tmp);
    for (const f of ['frontend/src/components/session-form.ts', 'frontend/src/components/sidebar.ts', 'docs/guide.md', 'node_modules/x/session-form.js']) {
      await mkdir(path.dirname(path.join(repo, f)), { recursive: true });
      await writeFile(path.join(repo, f), '// ' + f + '\n');
    }
    await writeFile(path.join(repo, '.gitignore'), 'node_modules/\n');
    await git(repo, 'add', 'frontend', '.gitignore');
    session = await api(server, 'POST', '/api/sessions', { cwd: repo, title: 'completion' });
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

  async function openChat(opts) {
    const page = await newPage(browser, opts);
    await signIn(page, server);
    await page.goto(`${server.url}/s/${session.id}/w/${worker().id}`);
    await page.locator(`${chat} .chat-conn[data-state="open"]`).waitFor();
    const input = page.locator(`${chat} .chat-input`);
    await page.waitForFunction((el) => !el.disabled, await input.elementHandle());
    await input.focus();
    return { page, input, list: page.locator(`${chat} .chat-complete`) };
  }

  const options = (list) => list.getByRole('option');
  const worker = () => session.workers.find((x) => x.kind === 'sdk');

  test('desktop: / commands and @ files are picked with the keyboard; Escape only closes', async () => {
    const { page, input, list } = await openChat(desktop);
    await page.keyboard.type('/com');
    const compact = list.getByRole('option', { name: /^\/compact/ });
    await compact.waitFor(); // the first / may start the CLI: "loading…" meanwhile
    if (shots) await shot(page, 'desktop');
    assert.match(await compact.innerText(), /\/compact[\s\S]+\S/, 'a command shows its description');
    const names = await options(list).evaluateAll((os) => os.map((o) => o.querySelector('.chat-complete-label').textContent));
    assert.ok(names[0].startsWith('/compact'), `a name starting with what was typed comes first: ${names}`);
    const all = await api(server, 'GET', `/api/sessions/${session.id}/workers/${worker().id}/commands`);
    assert.ok(names.length > 1 && names.length < all.commands.length, `filtered as typed: ${names.length} of ${all.commands.length}`);
    // Down, down, up, up: back on the first, /compact.
    for (const k of ['ArrowDown', 'ArrowDown', 'ArrowUp']) await page.keyboard.press(k);
    assert.equal(await input.getAttribute('aria-activedescendant'), await options(list).nth(1).getAttribute('id'));
    await page.keyboard.press('ArrowUp');
    assert.equal(await input.getAttribute('aria-activedescendant'), await compact.getAttribute('id'));
    assert.equal(await compact.getAttribute('aria-selected'), 'true');
    await page.keyboard.press('Enter');
    assert.equal(await input.inputValue(), '/compact ', 'Enter picks; it does not send');
    await list.waitFor({ state: 'hidden' });
    assert.equal(await page.locator(`${chat} .chat-user`).count(), 0, 'nothing was sent');

    await input.fill('');
    await page.keyboard.type('look at @sessform');
    const file = list.getByRole('option', { name: /session-form\.ts/ });
    await file.waitFor();
    assert.equal(await options(list).count(), 1, 'node_modules is not offered');
    await page.keyboard.press('Tab');
    assert.equal(await input.inputValue(), 'look at @frontend/src/components/session-form.ts ');
    await list.waitFor({ state: 'hidden' });
    assert.ok(await input.evaluate((el) => el === document.activeElement), 'Tab picks; the focus stays in the box');

    await page.keyboard.type('and @');
    await options(list).first().waitFor();
    await page.keyboard.press('Escape');
    await list.waitFor({ state: 'hidden' });
    assert.equal(await input.inputValue(), 'look at @frontend/src/components/session-form.ts and @');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('phone: a tap picks a file; the list fits and its rows are touch-sized', async () => {
    const { page, input, list } = await openChat(phone);
    await input.fill('');
    await page.keyboard.type('@guide');
    const opt = list.getByRole('option', { name: /guide\.md/ });
    await opt.waitFor();
    const box = await opt.boundingBox();
    assert.ok(box.height >= 40, `option height ${box.height}`);
    assert.deepEqual(await overflow(page), []);
    if (shots) await shot(page, 'phone');
    await opt.tap();
    assert.equal(await input.inputValue(), '@docs/guide.md ');
    await list.waitFor({ state: 'hidden' });
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  for (const [size, opts] of [['phone', phone], ['desktop', desktop]]) {
    test(`${size}: / hides internal and removed commands, everyday ones first, then what this browser used most`, async () => {
      const { page, input, list } = await openChat(opts);
      const all = (await api(server, 'GET', `/api/sessions/${session.id}/workers/${worker().id}/commands`)).commands;
      const labels = () => options(list).evaluateAll((os) => os.map((o) => o.querySelector('.chat-complete-label').textContent.split(' ')[0]));
      await page.keyboard.type('/');
      await list.getByRole('option', { name: /^\/compact/ }).waitFor();
      const shown = await labels();
      const hidden = all.filter((c) => c.name.startsWith('__') || /^\(removed\)/.test(c.description)).map((c) => `/${c.name}`);
      assert.ok(hidden.length >= 2, `the pinned CLI lists internal and removed commands: ${hidden}`);
      for (const h of hidden) assert.ok(!shown.includes(h), `${h} is not offered`);
      assert.ok(shown.every((n) => !n.startsWith('/__')), `no internal command: ${shown}`);
      assert.equal(shown.length, all.length - hidden.length, 'every other command is');
      assert.deepEqual(shown.slice(0, 3), ['/compact', '/clear', '/model'], 'the everyday commands lead');
      // Used twice from the menu: /context comes first from then on.
      for (let i = 0; i < 2; i++) {
        await input.fill('');
        await page.keyboard.type('/conte');
        await list.getByRole('option', { name: /^\/context/ }).waitFor();
        await page.keyboard.press('Enter');
        assert.equal(await input.inputValue(), '/context ');
      }
      await input.fill('');
      await page.keyboard.type('/');
      await list.getByRole('option', { name: /^\/compact/ }).waitFor();
      assert.deepEqual((await labels()).slice(0, 2), ['/context', '/compact'], 'the most used first');
      assert.deepEqual(await overflow(page), []);
      assert.deepEqual(page.errors, []);
      await page.context().close();
    });
  }

  /** Screenshots of the open list in both themes. */
  async function shot(page, size) {
    for (const scheme of ['dark', 'light']) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.waitForFunction((s) => document.documentElement.dataset.theme === s, scheme);
      await page.screenshot({ path: path.join(shots, `complete-${size}-${scheme}.png`) });
    }
  }
});
