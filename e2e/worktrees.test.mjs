// Browser end-to-end of the worktree lifecycle (issue 18) on a real
// repository: the worktrees view lists each worktree's state, "Squash"
// merges one back, "Clean up merged" confirms with exactly the folders it
// will remove and removes only those; a conflicting merge is refused with
// its files and leaves the repository clean. Screenshots (1280x800 and
// 390x844, light and dark) go to $SHOTS_DIR when it is set.
import assert from 'node:assert/strict';
import { access, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { desktop, launchBrowser, newPage, phone } from './browser.mjs';
import { api, git, makeRepo, overflow, signIn, startWithFakeClaude } from './ux.mjs';

const exists = (p) => access(p).then(() => true, () => false);

describe('Worktree lifecycle', { timeout: 240_000 }, () => {
  let server;
  let browser;
  let repo;
  const wt = {};

  before(async () => {
    const tmp = path.join((await import('node:os')).tmpdir(), `agentdesk-worktrees-${process.pid}`);
    server = await startWithFakeClaude(tmp);
    browser = await launchBrowser();
    repo = await makeRepo(await server.tempDir('worktrees-'));
    await git(repo, 'config', 'user.name', 'e2e');
    await git(repo, 'config', 'user.email', 'e2e@example.invalid');
    for (const branch of ['done', 'wip', 'clash']) {
      const s = await api(server, 'POST', '/api/sessions', { repo, branch, worktree: true, agent: 'none', title: branch });
      wt[branch] = s.worktree.path;
    }
    await writeFile(path.join(wt.done, 'feature.txt'), 'feature\n');
    await git(wt.done, 'add', '.');
    await git(wt.done, 'commit', '-q', '-m', 'feature');
    await writeFile(path.join(wt.wip, 'scratch.txt'), 'not committed\n');
    await writeFile(path.join(wt.clash, 'README.md'), '# theirs\n');
    await git(wt.clash, 'commit', '-q', '-am', 'theirs');
    await writeFile(path.join(repo, 'README.md'), '# ours\n');
    await git(repo, 'commit', '-q', '-am', 'ours');
  });

  after(async () => {
    await browser?.close();
    await server?.dispose();
  });

  const row = (page, p) => page.locator(`.wt-row[data-path="${p}"]`);
  const confirmDialog = (page) => page.locator('dialog.app-dialog:not(.wt-dialog)');

  async function openView(page) {
    await signIn(page, server);
    // On a phone the link sits in the session drawer.
    if (page.viewportSize().width <= 768) await page.locator('.menu-btn').click();
    await page.locator('.wt-link:visible, .sidebar-link:visible', { hasText: 'Worktrees' }).click();
    await row(page, wt.clash).waitFor();
  }

  test('squash one back, then clean up exactly the merged one', async () => {
    const page = await newPage(browser, desktop);
    await openView(page);
    assert.equal(await page.locator('.wt-row').count(), 3);
    await row(page, wt.wip).locator('.wt-badge', { hasText: 'uncommitted changes' }).waitFor();
    await row(page, wt.done).locator('.wt-badge', { hasText: 'ahead 1' }).waitFor();
    await shoot(page, 'desktop');

    await row(page, wt.done).getByRole('button', { name: 'Squash' }).click();
    await confirmDialog(page).getByRole('button', { name: 'Squash and commit' }).click();
    await page.locator('.wt-status', { hasText: 'done squashed into main' }).waitFor();
    assert.equal(await git(repo, 'log', '-1', '--format=%s'), 'Squash branch done');
    assert.equal(await git(repo, 'status', '--porcelain'), '');
    await row(page, wt.done).locator('.wt-badge', { hasText: /^merged$/ }).waitFor();

    await page.getByRole('button', { name: 'Clean up merged (1)' }).click();
    const listed = await confirmDialog(page).locator('.wt-confirm-list li').allTextContents();
    assert.deepEqual(listed, [wt.done], 'the confirmation lists exactly what goes');
    await confirmDialog(page).getByRole('button', { name: 'Remove them' }).click();
    await page.locator('.wt-status', { hasText: 'Removed 1.' }).waitFor();
    assert.equal(await exists(wt.done), false);
    assert.equal(await exists(wt.wip), true, 'a dirty worktree stays');
    assert.equal(await exists(wt.clash), true, 'an unmerged worktree stays');
    await row(page, wt.done).waitFor({ state: 'detached' }); // the list reloads after the answer
    await page.locator('.session-row.archived', { hasText: 'done' }).waitFor();
    await page.context().close();
  });

  test('a conflicting merge is refused with its files, the repository clean', async () => {
    const page = await newPage(browser, phone);
    await openView(page);
    const head = await git(repo, 'rev-parse', 'HEAD');
    await row(page, wt.clash).getByRole('button', { name: 'Merge', exact: true }).click();
    await confirmDialog(page).getByRole('button', { name: 'Merge', exact: true }).click();
    await page.locator('.wt-status.bad', { hasText: 'conflicts in README.md' }).waitFor();
    assert.equal(await git(repo, 'status', '--porcelain'), '');
    assert.equal(await git(repo, 'rev-parse', 'HEAD'), head);
    assert.deepEqual(await overflow(page), []);
    const small = await page.evaluate(() => [...document.querySelectorAll('.wt-dialog button')]
      .filter((b) => b.getBoundingClientRect().height < 40).map((b) => b.textContent));
    assert.deepEqual(small, [], 'touch targets of 40 px at least');
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
      await page.screenshot({ path: path.join(dir, `worktrees-${name}-${scheme}.png`) });
    }
  }
});
