// Browser tests of the diff on a phone and a desktop (issue 22, item 16):
// opening the Diff tab puts the focus on no text field (a phone's keyboard
// would pop up), and on a phone the controls (base, refresh, stage &
// commit, review) fold behind one "Controls" button so the diff starts in
// the top half of the screen; on a desktop they show as before.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { desktop, launchBrowser, newPage, phone } from './browser.mjs';
import { api, coveredControls, makeRepo, overflow, signIn, startWithFakeClaude } from './ux.mjs';

describe('the diff on a phone', { timeout: 300_000 }, () => {
  let tmp;
  let server;
  let browser;
  let s;

  before(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'agentdesk-ux-diff-'));
    server = await startWithFakeClaude(tmp);
    browser = await launchBrowser();
    const repo = await makeRepo(tmp, 'proj');
    await writeFile(path.join(repo, 'main.go'), 'package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Println("hello")\n}\n');
    s = await api(server, 'POST', '/api/sessions', { cwd: repo, title: 'diff on a phone' });
  });

  after(async () => {
    await browser?.close();
    await server?.dispose();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  const pane = (p) => p.locator('.pane-diff:not([hidden])');

  for (const [size, opts] of [['phone', phone], ['desktop', desktop]]) {
    test(`${size}: opening the Diff focuses no text field; ${size === 'phone' ? 'the controls fold behind one button' : 'the controls show'}`, async () => {
      const chat = s.workers.find((w) => w.kind === 'sdk');
      const p = await newPage(browser, opts);
      await signIn(p, server, `/s/${s.id}/w/${chat.id}`);
      await p.locator('.pane-chat:not([hidden])').waitFor();
      await p.locator('.tab[data-kind="git-diff"] .tab-main').click();
      await pane(p).waitFor();
      const focused = () => p.evaluate(() => `${document.activeElement?.tagName}.${document.activeElement?.className}`);
      assert.doesNotMatch(await focused(), /^(INPUT|TEXTAREA)/, 'no text field has the focus');
      const firstLine = pane(p).locator('.df-section .dd-row').first();
      await firstLine.waitFor();
      assert.doesNotMatch(await focused(), /^(INPUT|TEXTAREA)/, 'nor once the diff is shown');
      const base = pane(p).locator('.dd-base-input');
      const fold = pane(p).getByRole('button', { name: 'Controls' });
      if (size === 'phone') {
        const top = (await firstLine.boundingBox()).y;
        assert.ok(top < 844 / 2, `the first line of the diff starts in the top half (at ${Math.round(top)} px)`);
        assert.equal(await base.isVisible(), false, 'the base field is folded away');
        assert.equal(await pane(p).locator('.gp-toggle').isVisible(), false);
        await fold.click();
        assert.equal(await fold.getAttribute('aria-expanded'), 'true');
        await base.waitFor();
        await pane(p).locator('.gp-toggle').waitFor();
        await pane(p).locator('.rv').waitFor();
        assert.doesNotMatch(await focused(), /^(INPUT|TEXTAREA)/);
        assert.deepEqual((await coveredControls(p, '.pane-diff:not([hidden])')).covered, []);
        await fold.click();
        await base.waitFor({ state: 'hidden' });
      } else {
        assert.equal(await fold.isVisible(), false, 'no fold button on a desktop');
        assert.equal(await base.isVisible(), true);
        assert.equal(await pane(p).locator('.gp-toggle').isVisible(), true);
      }
      assert.deepEqual(await overflow(p), []);
      assert.deepEqual(p.errors, []);
      await p.context().close();
    });
  }
});
