// Browser end-to-end of the repository settings form and of archiving from
// the session's own actions (issue 18, the UI left over): on a real git
// repository, the form opens from the new-session form ("new git worktree")
// and from the worktrees view; a bad pattern shows the server's own message
// next to its field and stores nothing; a good save answers from
// GET /api/repos/settings; a worktree session then runs the setup command in
// its `setup` terminal tab and gets the files copied. Archive from the
// sidebar row asks the worktrees view's confirmation, removes the folder,
// and leaves the conversation readable. At 1280x800 and 390x844;
// screenshots (light and dark) go to $SHOTS_DIR when it is set.
import assert from 'node:assert/strict';
import { access, mkdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { desktop, launchBrowser, newPage, phone, waitForTerminalLine } from './browser.mjs';
import { api, chatTurnLines, git, makeRepo, overflow, signIn, startWithFakeClaude } from './ux.mjs';

const exists = (p) => access(p).then(() => true, () => false);
const settingsPath = (root) => `/api/repos/settings?root=${encodeURIComponent(root)}`;

describe('Repository settings and archive in the UI', { timeout: 300_000 }, () => {
  let server;
  let browser;
  let repo;

  before(async () => {
    server = await startWithFakeClaude(path.join(os.tmpdir(), `agentdesk-repo-settings-${process.pid}`), chatTurnLines());
    browser = await launchBrowser();
    repo = await makeRepo(await server.tempDir('repo-settings-'));
    // Untracked files a checkout does not bring (ignored, as usual): the settings copy them.
    await writeFile(path.join(repo, '.gitignore'), '.env*\n*.local\n');
    await git(repo, 'add', '.gitignore');
    await git(repo, 'commit', '-q', '-m', 'ignore local files');
    await writeFile(path.join(repo, '.env.local'), 'TOKEN=e2e\n');
    await mkdir(path.join(repo, 'config'));
    await writeFile(path.join(repo, 'config', 'app.local'), 'local=1\n');
  });

  after(async () => {
    await browser?.close();
    await server?.dispose();
  });

  const dialog = (page) => page.locator('dialog.rs-dialog');
  /** Console errors except the failed requests a test makes on purpose (a refused save or archive). */
  const unexpected = (page) => page.errors.filter((e) => !/Failed to load resource: the server responded with a status of (400|409)/.test(e));

  /** Opens the new-session form on the repository with "new git worktree" ticked. */
  async function worktreeForm(page) {
    if (page.viewportSize().width <= 768) await page.locator('.menu-btn').click();
    await page.getByRole('button', { name: '+ New session' }).first().click();
    await page.locator('#ns-cwd').fill(repo);
    await page.locator('label[for="ns-worktree"]').click(); // shows once the server says it is a repository
    await page.locator('#ns-branch').waitFor();
  }

  /** Waits until the dialog has read the stored settings (Save enabled). */
  const loaded = (page) => page.waitForFunction(() => document.querySelector('.rs-dialog button[type="submit"]')?.disabled === false);

  /** A PUT straight to the server: its status and error message. */
  async function put(body) {
    const res = await fetch(server.url + settingsPath(repo), {
      method: 'PUT', body: JSON.stringify(body),
      headers: { Authorization: `Bearer ${server.token}`, 'Content-Type': 'application/json' },
    });
    return { status: res.status, body: await res.json() };
  }

  test('desktop: save from the new-session form, then the worktree runs the setup and gets the files', async () => {
    const page = await newPage(browser, desktop);
    await signIn(page, server);
    await worktreeForm(page);
    const link = page.getByRole('button', { name: 'Repository settings…' });
    await link.click();
    await loaded(page);
    assert.equal(await dialog(page).locator('.rs-root code').textContent(), repo);
    assert.equal(await page.locator('#rs-copy').inputValue(), '.env*', 'the defaults show');
    assert.equal(await page.locator('#rs-setup').inputValue(), '');

    // A pattern leaving the repository: the server's message next to the field, nothing stored.
    const want = await put({ setupCommand: 'x', copyFiles: ['../outside'] });
    assert.equal(want.status, 400);
    await page.locator('#rs-setup').fill('echo ran > setup-done.txt && echo SETUP-OK');
    await page.locator('#rs-copy').fill('.env*\n../outside');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('#rs-copy-error', { hasText: want.body.error }).waitFor();
    assert.equal(await page.locator('#rs-copy').getAttribute('aria-invalid'), 'true');
    assert.equal(await page.locator('#rs-copy-error').textContent(), want.body.error);
    assert.deepEqual(await api(server, 'GET', settingsPath(repo)), { root: repo, setupCommand: '', copyFiles: ['.env*'] }, 'nothing stored');
    await shoot(page, 'form-error-desktop');

    // Save is disabled while the request is on its way (held here until checked).
    let release;
    const held = new Promise((r) => { release = r; });
    let seen;
    const seenPut = new Promise((r) => { seen = r; });
    await page.route('**/api/repos/settings?*', async (route) => {
      if (route.request().method() === 'PUT') {
        seen();
        await held;
      }
      await route.continue();
    });
    await page.locator('#rs-copy').fill('.env*\n\nconfig/*.local\n');
    await page.getByRole('button', { name: 'Save' }).click();
    await seenPut;
    assert.equal(await page.getByRole('button', { name: 'Save' }).isDisabled(), true, 'Save is disabled while saving');
    release();
    await dialog(page).locator('.rs-status', { hasText: 'Saved.' }).waitFor();
    await page.unroute('**/api/repos/settings?*');
    assert.equal(await page.getByRole('button', { name: 'Save' }).isDisabled(), false);
    assert.equal(await page.locator('#rs-copy-error').textContent(), '', 'the old error is gone');
    assert.deepEqual(await api(server, 'GET', settingsPath(repo)),
      { root: repo, setupCommand: 'echo ran > setup-done.txt && echo SETUP-OK', copyFiles: ['.env*', 'config/*.local'] });
    await shoot(page, 'form-desktop');

    // Escape closes the dialog and gives the focus back to the link.
    await page.keyboard.press('Escape');
    await dialog(page).waitFor({ state: 'detached' });
    assert.equal(await link.evaluate((el) => el === document.activeElement), true);

    await page.locator('#ns-branch').fill('with-setup');
    await page.getByRole('button', { name: 'Create' }).click();
    const tab = page.getByRole('tab', { name: /setup/ });
    await tab.click();
    await waitForTerminalLine(page, 'SETUP-OK');
    const s = (await api(server, 'GET', '/api/sessions')).find((x) => x.worktree?.branch === 'with-setup');
    const wt = s.worktree.path;
    assert.equal(await readFile(path.join(wt, 'setup-done.txt'), 'utf8'), 'ran\n', 'the command ran in the worktree');
    assert.equal(await readFile(path.join(wt, '.env.local'), 'utf8'), 'TOKEN=e2e\n');
    assert.equal(await readFile(path.join(wt, 'config', 'app.local'), 'utf8'), 'local=1\n');
    assert.deepEqual(unexpected(page), []);
    await page.context().close();
  });

  test('phone: the form from the worktrees view fits, and its targets are 44 px', async () => {
    const page = await newPage(browser, phone);
    await signIn(page, server);
    await page.locator('.menu-btn').click();
    await page.locator('.sidebar-link:visible', { hasText: 'Worktrees' }).click();
    const open = page.getByRole('button', { name: `Repository settings of ${repo}` });
    await open.waitFor();
    assert.equal(await open.count(), 1, 'one line per repository, however many worktrees');
    await shoot(page, 'worktrees-phone');
    await open.click();
    await loaded(page);
    assert.equal(await page.locator('#rs-setup').inputValue(), 'echo ran > setup-done.txt && echo SETUP-OK', 'the stored settings show');
    assert.deepEqual(await overflow(page), []);
    const small = await dialog(page).evaluate((d) => [...d.querySelectorAll('button, textarea')]
      .filter((b) => { const r = b.getBoundingClientRect(); return r.height < 44 || r.width < 44; }).map((b) => b.textContent || b.id));
    assert.deepEqual(small, [], 'touch targets of 44 px at least (the app’s size on touch screens)');
    await page.locator('#rs-setup').fill('x'.repeat(5000));
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('#rs-setup-error', { hasText: 'setupCommand' }).waitFor();
    assert.deepEqual(await overflow(page), []);
    await shoot(page, 'form-error-phone');
    assert.equal((await api(server, 'GET', settingsPath(repo))).setupCommand, 'echo ran > setup-done.txt && echo SETUP-OK', 'nothing stored');
    await page.locator('#rs-setup').fill('echo SETUP-OK');
    await page.getByRole('button', { name: 'Save' }).click();
    await dialog(page).locator('.rs-status', { hasText: 'Saved.' }).waitFor();
    await shoot(page, 'form-phone');
    await dialog(page).getByRole('button', { name: 'Close' }).click();
    await dialog(page).waitFor({ state: 'detached' });
    assert.deepEqual(unexpected(page), []);
    await page.context().close();
  });

  for (const [size, opts] of [['phone', phone], ['desktop', desktop]]) {
    test(`${size}: archive from the session's actions keeps the conversation readable`, async () => {
      const s = await api(server, 'POST', '/api/sessions', { repo, branch: `arch-${size}`, worktree: true, title: `arch ${size}` });
      const agent = s.workers.find((w) => w.kind === 'sdk');
      // On the phone the worktree has a change: archiving it takes the second confirmation.
      if (size === 'phone') await writeFile(path.join(s.worktree.path, 'scratch.txt'), 'not committed\n');
      const page = await newPage(browser, opts);
      await signIn(page, server, `/s/${s.id}/w/${agent.id}`);
      await api(server, 'POST', `/api/sessions/${s.id}/workers/${agent.id}/input`, { content: 'hello' });
      await page.locator('.pane-chat:not([hidden]) .chat-result').waitFor();
      if (size === 'phone') await page.locator('.menu-btn').click();
      const row = page.locator(`.session-row[data-sid="${s.id}"]`);
      const btn = row.getByRole('button', { name: `Archive session arch ${size}` });
      assert.equal(await page.locator('.session-row .archive-btn:visible').count() >= 1, true);
      const box = await btn.boundingBox();
      assert.ok(size === 'desktop' || (box.width >= 44 && box.height >= 44), `archive button ${box.width}x${box.height}`);
      await shoot(page, `menu-${size}`);
      await btn.click();
      const confirm = page.locator('dialog.app-dialog', { hasText: 'Archive session' });
      await confirm.locator('code', { hasText: s.worktree.path }).waitFor();
      await confirm.getByRole('button', { name: 'Archive' }).click();
      if (size === 'phone') {
        const second = page.locator('dialog.app-dialog', { hasText: 'uncommitted changes' });
        await second.locator('code', { hasText: s.worktree.path }).waitFor();
        assert.equal(await exists(s.worktree.path), true, 'nothing removed before the second answer');
        await second.getByRole('button', { name: 'Delete the changes too' }).click();
      }
      await row.and(page.locator('.archived')).waitFor();
      assert.equal(await btn.isHidden(), true, 'no archive button on an archived session');
      assert.equal((await api(server, 'GET', `/api/sessions/${s.id}`)).archived, true);
      assert.equal(await exists(s.worktree.path), false, 'the worktree folder is gone');
      await page.reload();
      await page.locator('.pane-chat:not([hidden]) .chat-result').waitFor();
      await page.locator('.pane-chat:not([hidden]) .chat-user', { hasText: 'hello' }).waitFor();
      assert.equal(await page.locator('.pane-chat:not([hidden]) .chat-input').isEditable(), false, 'read-only');
      assert.deepEqual(await overflow(page), []);
      assert.deepEqual(unexpected(page), []);
      await page.context().close();
    });
  }

  /** Screenshots in light and dark when SHOTS_DIR is set. */
  async function shoot(page, name) {
    const dir = process.env.SHOTS_DIR;
    if (!dir) return;
    await mkdir(dir, { recursive: true });
    for (const scheme of ['light', 'dark']) {
      await page.evaluate((sc) => { document.documentElement.dataset.theme = sc; }, scheme);
      await page.screenshot({ path: path.join(dir, `repo-settings-${name}-${scheme}.png`) });
    }
  }
});
