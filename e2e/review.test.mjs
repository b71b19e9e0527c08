// Browser end-to-end of review comments (issue 18), with the real Claude
// CLI against the fake Messages API: in the diff, comment on a range of the
// new side (click a line number, shift+click another) and on a range of the
// old side; the tray counts them; "Send review" sends them as one message
// and the agent's reply shows in the chat; the comments show as sent and,
// once the agent's file changes under one, as outdated. On a phone, a tap
// selects a line and a second tap extends the range. Screenshots
// (1280x800 and 390x844, light and dark) go to $SHOTS_DIR when it is set.
import assert from 'node:assert/strict';
import { access, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { desktop, launchBrowser, newPage, phone } from './browser.mjs';
import { claudeBin, claudeServerOptions, startFakeApi } from './fakeapi.mjs';
import { AgentdeskServer } from './server.mjs';
import { api, git, overflow, signIn, smallTargets } from './ux.mjs';

const lines = (n) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
const edited = () => lines(12).replace('line 2\n', 'line two\n').replace('line 7\n', 'line seven\n');

describe('review comments', { timeout: 300_000 }, () => {
  let tmp;
  let fake;
  let server;
  let browser;
  let repo;
  let sid;
  const pane = (page) => page.locator('.pane-diff:not([hidden])');
  const tray = (page) => pane(page).locator('.rv');
  const num = (page, side, n) => pane(page).locator(`.df-section[data-path="a.txt"] .dd-row > .ln:nth-child(${side === 'old' ? 1 : 2})[data-n="${n}"]`);

  before(async () => {
    await access(claudeBin);
    tmp = await mkdtemp(path.join(os.tmpdir(), 'agentdesk-review-e2e-'));
    fake = await startFakeApi(tmp);
    server = await AgentdeskServer.start(claudeServerOptions(fake.url));
    browser = await launchBrowser();
    repo = path.join(tmp, 'repo');
    await mkdir(repo);
    await git(repo, 'init', '-q', '-b', 'main');
    await writeFile(path.join(repo, 'a.txt'), lines(12));
    await git(repo, 'add', '.');
    await git(repo, 'commit', '-q', '-m', 'first');
    await writeFile(path.join(repo, 'a.txt'), edited());
    sid = (await api(server, 'POST', '/api/sessions', { cwd: repo, title: 'review' })).id;
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

  async function openDiff(page) {
    await signIn(page, server, `/s/${sid}`);
    await page.locator('.tab[data-kind="git-diff"] .tab-main').click();
    await num(page, 'new', 2).waitFor();
  }

  async function comment(page, text) {
    const box = pane(page).locator('.rv-box');
    await box.locator('textarea').fill(text);
    await box.getByRole('button', { name: 'Add comment' }).click();
    await box.waitFor({ state: 'detached' });
  }

  test('comment on two ranges, send the review, see the reply', async () => {
    const page = await newPage(browser, desktop);
    await openDiff(page);
    await num(page, 'new', 2).click();
    await num(page, 'new', 3).click({ modifiers: ['Shift'] });
    await pane(page).locator('.rv-box-head', { hasText: 'Comment on a.txt:2-3 (new)' }).waitFor();
    await comment(page, 'Spell the number as a digit.');
    await num(page, 'old', 7).click();
    await num(page, 'old', 8).click({ modifiers: ['Shift'] });
    await pane(page).locator('.rv-box-head', { hasText: 'Comment on a.txt:7-8 (old)' }).waitFor();
    await comment(page, 'Why did line 7 go?');
    await tray(page).locator('.rv-badge', { hasText: /^2$/ }).waitFor();
    assert.equal(await pane(page).locator('.dd-row.rv-marked').count(), 4, 'the commented lines are marked');

    const stored = (await api(server, 'GET', `/api/sessions/${sid}/comments`)).comments;
    assert.deepEqual(stored.map((c) => [c.side, c.startLine, c.endLine, c.quote, c.status]), [
      ['new', 2, 3, ['line two', 'line 3'], 'draft'],
      ['old', 7, 8, ['line 7', 'line 8'], 'draft'],
    ]);
    await tray(page).locator('.rv-toggle').click();
    await shoot(page, 'desktop');

    await tray(page).getByRole('button', { name: 'Send review' }).click();
    await tray(page).locator('.rv-note', { hasText: 'Sent 2 comments to the agent.' }).waitFor();
    assert.equal(await tray(page).locator('.rv-chip.rv-sent').count(), 2);
    await tray(page).locator('.rv-badge', { hasText: /^0$/ }).waitFor();

    await page.locator('.tab[data-kind="sdk"] .tab-main').click();
    const chat = page.locator('.pane-chat:not([hidden])');
    await chat.locator('.chat-text', { hasText: 'Echo: Review of your changes: 2 comments' }).waitFor();
    const reply = await chat.locator('.chat-text', { hasText: 'Echo: Review of your changes' }).last().textContent();
    for (const want of ['a.txt:2-3', '2 | line two', '3 | line 3', 'Spell the number as a digit.', 'a.txt:7-8', '7 | line 7', 'Why did line 7 go?']) {
      assert.ok(reply.includes(want), `the agent's reply (echoing the review) lacks ${want}: ${reply}`);
    }

    // The agent's file changes under the first comment: it shows outdated.
    await page.locator('.tab[data-kind="git-diff"] .tab-main').click();
    await writeFile(path.join(repo, 'a.txt'), edited().replace('line 3\n', 'line 3 changed\n'));
    await tray(page).locator('.rv-item.is-outdated .rv-place', { hasText: 'a.txt:2-3 (new)' }).waitFor();
    assert.equal(await tray(page).locator('.rv-item.is-outdated').count(), 1);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('on a phone, a tap selects and a second tap extends; the layout fits', async () => {
    const page = await newPage(browser, phone);
    await openDiff(page);
    const code = (n) => pane(page).locator(`.df-section[data-path="a.txt"] .dd-row:has(> .ln:nth-child(2)[data-n="${n}"]) > .lc`);
    await code(8).tap();
    await code(10).tap();
    await pane(page).locator('.rv-box-head', { hasText: 'Comment on a.txt:8-10 (new)' }).waitFor();
    await pane(page).locator('.rv-box textarea').fill('Three lines at once.');
    await pane(page).locator('.rv-box').scrollIntoViewIfNeeded();
    await shoot(page, 'phone-box');
    const small = () => smallTargets(page, 40).then((l) => l.filter((s) => /Review|Send review|Add comment|Cancel|Edit|Delete/.test(s)));
    assert.deepEqual(await small(), []);
    await pane(page).locator('.rv-box').getByRole('button', { name: 'Add comment' }).tap();
    await tray(page).locator('.rv-badge', { hasText: /^1$/ }).waitFor();
    await tray(page).locator('.rv-toggle').tap();
    assert.deepEqual(await overflow(page), []);
    assert.deepEqual(await small(), []);
    await shoot(page, 'phone');
    await page.context().close();
  });

  async function shoot(page, name) {
    const dir = process.env.SHOTS_DIR;
    if (!dir) return;
    await mkdir(dir, { recursive: true });
    for (const scheme of ['light', 'dark']) {
      await page.evaluate((s) => { document.documentElement.dataset.theme = s; }, scheme);
      await page.screenshot({ path: path.join(dir, `review-${name}-${scheme}.png`) });
    }
  }
});
