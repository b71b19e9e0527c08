// Browser end-to-end of "Git from the UI" (issue 18) on a real repository:
// stage one hunk of two from the diff pane's "Stage & commit" panel, commit
// it with a message, and see git's state, the panel and the diff update; an
// untracked file is deleted only after two confirmations; "Ask the agent to
// write it" reaches the session's agent and its answer fills the box; Push
// goes to a local bare remote.
// Screenshots of the panel (1280x800 and 390x844, light and dark) go to
// $SHOTS_DIR when it is set.
import assert from 'node:assert/strict';
import { access, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { desktop, launchBrowser, newPage, phone } from './browser.mjs';
import { api, chatTurnLines, git, overflow, signIn, smallTargets, startWithFakeClaude } from './ux.mjs';

const lines = (n) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
const edited = () => lines(40).replace('line 2\n', 'line two\n').replace('line 35\n', 'line thirty-five\n');

describe('Git from the UI', { timeout: 240_000 }, () => {
  let server;
  let browser;
  let repo;
  let sid;
  const pane = (page) => page.locator('.pane-diff:not([hidden])');
  const panel = (page) => pane(page).locator('.gp');
  const file = (page, side, p) => panel(page).locator(`.gp-file[data-side="${side}"][data-path="${p}"]`);

  before(async () => {
    const tmp = path.join((await import('node:os')).tmpdir(), `agentdesk-gitops-${process.pid}`);
    server = await startWithFakeClaude(tmp, chatTurnLines());
    browser = await launchBrowser();
    repo = path.join(await server.tempDir('gitops-'), 'repo');
    await mkdir(repo);
    await git(repo, 'init', '-q', '-b', 'main');
    await git(repo, 'config', 'user.name', 'e2e');
    await git(repo, 'config', 'user.email', 'e2e@example.invalid');
    await writeFile(path.join(repo, 'a.txt'), lines(40));
    await git(repo, 'add', '.');
    await git(repo, 'commit', '-q', '-m', 'first');
    await writeFile(path.join(repo, 'a.txt'), edited());
    const s = await api(server, 'POST', '/api/sessions', { cwd: repo, title: 'git ops' });
    sid = s.id;
  });

  after(async () => {
    await browser?.close();
    await server?.dispose();
  });

  async function openPanel(page) {
    await signIn(page, server, `/s/${sid}`);
    await page.locator('.tab[data-kind="git-diff"] .tab-main').click();
    // A phone folds the controls behind one button.
    const fold = page.locator('.pane-diff:not([hidden]) .dd-fold');
    if (await fold.isVisible()) await fold.click();
    await panel(page).locator('.gp-toggle').click();
    await file(page, 'unstaged', 'a.txt').waitFor();
  }

  test('stage one hunk, commit it, and the diff follows', async () => {
    const page = await newPage(browser, desktop);
    await openPanel(page);
    await file(page, 'unstaged', 'a.txt').locator('.gp-name').click();
    const hunks = file(page, 'unstaged', 'a.txt').locator('.gp-hunk');
    assert.equal(await hunks.count(), 2);
    await hunks.nth(1).getByRole('button', { name: /^Stage hunk/ }).click();
    await file(page, 'staged', 'a.txt').waitFor();
    const cached = await git(repo, 'diff', '--cached', '-U0');
    assert.match(cached, /-line 35\n\+line thirty-five/);
    assert.doesNotMatch(cached, /line two/, 'only the second hunk is staged');
    assert.equal(await git(repo, 'status', '--porcelain=v1'), 'MM a.txt');
    await shoot(page, 'desktop');

    await panel(page).locator('.gp-msg').fill('Spell out line 35');
    await panel(page).getByRole('button', { name: 'Commit', exact: true }).click();
    await panel(page).locator('.gp-note', { hasText: /^Committed [0-9a-f]{7}\.$/ }).waitFor();
    assert.equal(await git(repo, 'log', '-1', '--format=%s'), 'Spell out line 35');
    assert.equal(await git(repo, 'status', '--porcelain=v1'), 'M a.txt');
    await panel(page).locator('.gp-list[data-side="staged"] .gp-empty', { hasText: 'Nothing staged.' }).waitFor();
    // The diff below moves to the new head; its base (resolved when the
    // worker started) stays, so both edits still show there.
    const head = (await git(repo, 'rev-parse', 'HEAD')).slice(0, 7);
    await pane(page).locator('.dd-shas', { hasText: `head ${head}` }).waitFor();
    await pane(page).locator('.df-section[data-path="a.txt"] .dl-add', { hasText: 'line two' }).waitFor();

    // Committing again: git's own refusal is shown.
    await panel(page).locator('.gp-msg').fill('again');
    await panel(page).getByRole('button', { name: 'Commit', exact: true }).click();
    await panel(page).locator('.gp-error', { hasText: 'no changes added to commit' }).waitFor();
    assert.deepEqual(page.errors.filter((e) => !e.includes('409')), []);
    await page.context().close();
  });

  test('an untracked file is deleted only after two confirmations', async () => {
    await writeFile(path.join(repo, 'scratch.txt'), 'notes\n');
    const page = await newPage(browser, desktop);
    await openPanel(page);
    await file(page, 'unstaged', 'scratch.txt').waitFor();
    const discard = file(page, 'unstaged', 'scratch.txt').getByRole('button', { name: 'Discard scratch.txt' });
    await discard.click();
    await page.locator('dialog.app-dialog').getByRole('button', { name: 'Delete…' }).click();
    await page.locator('dialog.app-dialog', { hasText: 'Delete it for good?' }).getByRole('button', { name: 'Keep it' }).click();
    await access(path.join(repo, 'scratch.txt')); // still there
    await discard.click();
    await page.locator('dialog.app-dialog').getByRole('button', { name: 'Delete…' }).click();
    await page.locator('dialog.app-dialog', { hasText: 'Delete it for good?' }).getByRole('button', { name: 'Delete the file' }).click();
    await file(page, 'unstaged', 'scratch.txt').waitFor({ state: 'detached' });
    await assert.rejects(access(path.join(repo, 'scratch.txt')));
    await page.context().close();
  });

  test('"Ask the agent to write it" sends the agent a message; its answer fills the box', async () => {
    const page = await newPage(browser, desktop);
    await openPanel(page);
    await panel(page).getByRole('button', { name: 'Ask the agent to write it' }).click();
    // The scripted turn's reply (its result text) has no code block: all of it.
    await page.waitForFunction(() => document.querySelector('.pane-diff:not([hidden]) .gp-msg')?.value === 'Done.');
    const s = await api(server, 'GET', `/api/sessions/${sid}`);
    const msgs = await api(server, 'GET', `/api/sessions/${sid}/workers/${s.activeAgentWorkerId}/messages`);
    assert.ok(msgs.messages.some((m) => m.message.type === 'user' && JSON.stringify(m.message).includes('git diff --cached')));
    await page.context().close();
  });

  test('push to a bare remote; the phone layout fits', async () => {
    const bare = path.join(await server.tempDir('remote-'), 'remote.git');
    await git(path.dirname(bare), 'init', '-q', '--bare', bare);
    await git(repo, 'remote', 'add', 'origin', bare);
    const page = await newPage(browser, phone);
    await openPanel(page);
    await panel(page).getByRole('button', { name: 'Push to origin' }).click();
    await panel(page).locator('.gp-note', { hasText: 'Pushed main to origin.' }).waitFor();
    assert.equal(await git(bare, 'rev-parse', 'main'), await git(repo, 'rev-parse', 'HEAD'));
    await file(page, 'unstaged', 'a.txt').locator('.gp-name').click();
    await file(page, 'unstaged', 'a.txt').locator('.gp-hunk').first().waitFor();
    assert.deepEqual(await overflow(page), []);
    const small = (await smallTargets(page, 40)).filter((s) => /Stage|Unstage|Discard|Commit|Push|Ask|a\.txt/.test(s));
    assert.deepEqual(small, []);
    await shoot(page, 'phone');
    await page.context().close();
  });

  /** Screenshots in light and dark when SHOTS_DIR is set. */
  async function shoot(page, name) {
    const dir = process.env.SHOTS_DIR;
    if (!dir) return;
    await mkdir(dir, { recursive: true });
    for (const scheme of ['light', 'dark']) {
      await page.evaluate((s) => { document.documentElement.dataset.theme = s; }, scheme);
      await page.screenshot({ path: path.join(dir, `git-ops-${name}-${scheme}.png`) });
    }
  }
});

