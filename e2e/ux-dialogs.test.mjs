// Browser tests of the app's own dialogs and messages: deleting a session,
// closing a worker and switching mid-turn ask in an in-page dialog (never
// window.confirm); a session in a git worktree is created from the form,
// shows its branch, and deleting it offers to remove the worktree, with a
// second explicit confirmation when it has uncommitted changes; errors read
// as sentences; a refused notification permission is said so.
import assert from 'node:assert/strict';
import { access, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { desktop, launchBrowser, newPage, phone } from './browser.mjs';
import { api, coveredControls, git, makeRepo, signIn, startWithFakeClaude } from './ux.mjs';

/** A turn that waits on a permission request: the agent is "asking" until answered. */
function askingTurn() {
  const sid = '{{SESSION_ID}}';
  return [
    { type: 'system', subtype: 'init', cwd: '{{CWD}}', session_id: sid, tools: ['Bash'], model: 'claude-fake', permissionMode: 'default', uuid: '{{UUID}}' },
    { type: 'control_request', request_id: 'perm-1', request: { subtype: 'can_use_tool', tool_name: 'Bash', input: { command: 'touch x', description: 'Touch x' }, tool_use_id: 'toolu_p1' } },
    { type: 'assistant', message: { id: 'msg_p', type: 'message', role: 'assistant', model: 'claude-fake', content: [{ type: 'text', text: 'Done.' }], stop_reason: null, usage: { input_tokens: 1, output_tokens: 1 } }, parent_tool_use_id: null, session_id: sid, uuid: '{{UUID}}' },
    { type: 'result', subtype: 'success', is_error: false, duration_ms: 10, num_turns: 1, result: 'Done.', session_id: sid, total_cost_usd: 0.001, usage: { input_tokens: 1, output_tokens: 1 }, uuid: '{{UUID}}' },
  ];
}

const exists = (p) => access(p).then(() => true, () => false);

describe('dialogs, worktrees and messages', { timeout: 400_000 }, () => {
  let tmp;
  let server;
  let browser;
  let repo;

  before(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'agentdesk-ux-dialogs-'));
    server = await startWithFakeClaude(tmp, askingTurn());
    browser = await launchBrowser();
    repo = await makeRepo(tmp, 'proj');
  });

  after(async () => {
    await browser?.close();
    await server?.dispose();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  /** A page that fails the test on any native dialog (alert, confirm, prompt). */
  async function page(opts = desktop) {
    const p = await newPage(browser, opts);
    p.on('dialog', (d) => {
      p.errors.push(`native ${d.type()} dialog: ${d.message()}`);
      void d.dismiss();
    });
    await signIn(p, server);
    return p;
  }

  const dialog = (p) => p.locator('dialog[open]');

  test('deleting a session asks in the app’s dialog; Cancel keeps it', async () => {
    const s = await api(server, 'POST', '/api/sessions', { cwd: await server.tempDir(), agent: 'none', title: 'to delete' });
    const p = await page();
    const del = p.getByRole('button', { name: 'Delete session to delete' });
    await del.click();
    await dialog(p).getByRole('heading', { name: 'Delete session “to delete”?' }).waitFor();
    assert.equal(await p.evaluate(() => document.activeElement?.textContent), 'Cancel', 'the focus starts on Cancel');
    await p.keyboard.press('Escape');
    await dialog(p).waitFor({ state: 'detached' });
    assert.equal((await api(server, 'GET', `/api/sessions/${s.id}`)).id, s.id, 'Escape deleted nothing');
    await del.click();
    await dialog(p).getByRole('button', { name: 'Delete session' }).click();
    await p.locator('.session-title', { hasText: 'to delete' }).waitFor({ state: 'detached' });
    assert.deepEqual(p.errors, []);
    await p.context().close();
  });

  test('a worktree session from the form shows its branch; deleting it with changes takes a second confirmation', async () => {
    const p = await page();
    await p.getByRole('button', { name: '+ New session' }).first().click();
    await p.locator('#ns-cwd').fill(repo);
    await p.locator('.ns-worktree:not([hidden])').waitFor();
    await p.locator('#ns-worktree').check();
    await p.locator('#ns-branch').fill('main');
    await p.locator('#ns-agent').selectOption('none');
    await p.getByRole('button', { name: 'Create' }).click();
    const err = p.locator('#ns-error');
    await err.waitFor();
    assert.match(await err.innerText(), /^Branch "main" already exists in .*; choose another name\.$/, 'a sentence about the branch');
    assert.equal(await p.evaluate(() => document.activeElement?.id), 'ns-branch', 'the branch field takes the focus');
    await p.locator('#ns-branch').fill('feat/ui');
    await p.getByRole('button', { name: 'Create' }).click();
    await p.waitForURL(/\/s\/[^/]+/);
    await p.locator('.session-head .head-branch', { hasText: 'feat/ui' }).waitFor();
    await p.locator('.session-row.current .session-branch', { hasText: 'feat/ui' }).waitFor();
    const wtPath = path.join(tmp, 'proj-feat-ui');
    assert.equal(await exists(wtPath), true, 'the worktree folder exists');

    // Uncommitted work in the worktree.
    await writeFile(path.join(wtPath, 'wip.txt'), 'work in progress\n');
    const label = await p.locator('.session-row.current .session-title').innerText();
    await p.getByRole('button', { name: `Delete session ${label}` }).click();
    await dialog(p).locator('.dialog-warn', { hasText: 'uncommitted changes' }).waitFor();
    await dialog(p).getByRole('checkbox').check();
    await dialog(p).getByRole('button', { name: 'Delete session' }).click();
    await dialog(p).getByRole('heading', { name: 'Remove a worktree with uncommitted changes?' }).waitFor();
    await dialog(p).getByRole('button', { name: 'Keep everything' }).click();
    await dialog(p).waitFor({ state: 'detached' });
    assert.equal(await exists(path.join(wtPath, 'wip.txt')), true, 'the changes are kept');
    assert.equal(await p.locator('.session-row.current').count(), 1, 'the session is kept');

    await p.getByRole('button', { name: `Delete session ${label}` }).click();
    await dialog(p).getByRole('checkbox').check();
    await dialog(p).getByRole('button', { name: 'Delete session' }).click();
    await dialog(p).getByRole('button', { name: 'Delete the changes too' }).click();
    await p.locator('.session-row', { hasText: label }).waitFor({ state: 'detached' });
    assert.equal(await exists(wtPath), false, 'the worktree folder is gone');
    assert.equal(await git(repo, 'branch', '--list', 'feat/ui'), 'feat/ui', 'the branch is kept');
    assert.deepEqual(p.errors.filter((e) => !/status of 400/.test(e)), []);
    await p.context().close();
  });

  test('changes that appear after the first answer still need the second confirmation (409)', async () => {
    const s = await api(server, 'POST', '/api/sessions', { repo, branch: 'late', worktree: true, agent: 'none', title: 'late changes' });
    const p = await page();
    await p.getByRole('button', { name: 'Delete session late changes' }).click();
    await dialog(p).getByRole('checkbox').waitFor();
    assert.equal(await dialog(p).locator('.dialog-warn').count(), 0, 'clean when asked');
    await writeFile(path.join(s.worktree.path, 'late.txt'), 'x\n');
    await dialog(p).getByRole('checkbox').check();
    await dialog(p).getByRole('button', { name: 'Delete session' }).click();
    await dialog(p).getByRole('heading', { name: 'Remove a worktree with uncommitted changes?' }).waitFor();
    await dialog(p).getByRole('button', { name: 'Keep everything' }).click();
    assert.equal(await exists(path.join(s.worktree.path, 'late.txt')), true);
    assert.equal((await api(server, 'GET', `/api/sessions/${s.id}`)).id, s.id);
    assert.deepEqual(p.errors.filter((e) => !/status of 409/.test(e)), []);
    await p.context().close();
  });

  test('errors from the server read as sentences', async () => {
    const p = await page(phone);
    await p.locator('.menu-btn').click();
    await p.getByRole('button', { name: '+ New session' }).first().click();
    await p.locator('#ns-cwd').fill('/no/such/dir');
    await p.getByRole('button', { name: 'Create' }).click();
    const err = p.locator('#ns-error');
    await err.waitFor();
    const text = await err.innerText();
    assert.equal(text, 'The folder "/no/such/dir" does not exist or cannot be read.');
    assert.doesNotMatch(text, /: (invalid|conflict|not found)\b/);
    assert.deepEqual(p.errors.filter((e) => !/status of 400/.test(e)), []);
    await p.context().close();
  });

  test('closing a worker and switching mid-turn ask in the app’s dialog; stopped agents fold into History', async () => {
    const s = await api(server, 'POST', '/api/sessions', { cwd: await server.tempDir(), title: 'mid-turn' });
    const chatW = s.workers.find((w) => w.kind === 'sdk');
    const term = await api(server, 'POST', `/api/sessions/${s.id}/workers`, { kind: 'terminal' });
    const p = await page(phone);
    await p.goto(`${server.url}/s/${s.id}/w/${term.id}`);
    await p.getByRole('button', { name: `Close ${term.name}` }).click();
    await dialog(p).getByRole('button', { name: 'Close worker' }).click();
    await p.locator(`.tab[data-wid="${term.id}"]`).waitFor({ state: 'detached' });

    await p.goto(`${server.url}/s/${s.id}/w/${chatW.id}`);
    await api(server, 'POST', `/api/sessions/${s.id}/workers/${chatW.id}/input`, { content: 'touch x please' });
    await p.locator('.pane-chat:not([hidden]) .chat-perm').waitFor(); // the turn waits for an answer
    const sw = p.locator('.switch-agent');
    assert.equal(await sw.innerText(), 'Open in terminal');
    await sw.click();
    await dialog(p).getByRole('heading', { name: 'Claude is in the middle of a turn' }).waitFor();
    await dialog(p).getByRole('button', { name: 'Keep working' }).click();
    await dialog(p).waitFor({ state: 'detached' });
    assert.equal(await p.locator('.pane-chat:not([hidden]) .chat-perm').count(), 1, 'the turn goes on');

    await sw.click();
    await dialog(p).getByRole('button', { name: 'Interrupt and switch' }).click();
    await p.locator('.tab.selected[data-kind="pty-agent"]', { hasText: 'Terminal' }).waitFor();
    await p.locator('.switch-agent', { hasText: 'Back to chat' }).waitFor();
    const history = p.locator('.history-btn');
    await history.waitFor();
    assert.equal(await history.innerText(), 'History (1)', 'the stopped chat is folded, not a tab');
    assert.equal(await p.locator('.tab.read-only').count(), 0);
    const { covered } = await coveredControls(p);
    assert.deepEqual(covered, [], '"Back to chat" and the rest can be clicked at 390 px');
    await history.click();
    await p.locator('.history-item').click();
    await p.locator('.tab.selected.read-only').waitFor(); // shown while looked at
    assert.deepEqual(p.errors.filter((e) => !/status of 409/.test(e)), []);
    await p.context().close();
  });

  test('"Enable notifications" says when the browser refused', async () => {
    await api(server, 'POST', '/api/sessions', { cwd: await server.tempDir(), title: 'notify' });
    const p = await newPage(browser, desktop);
    await p.addInitScript(() => {
      // A browser that has not been asked yet, and then refuses.
      Object.defineProperty(window, 'Notification', { configurable: true, value: class {
        static permission = 'default';
        static requestPermission() {
          this.permission = 'denied';
          return Promise.resolve('denied');
        }
      } });
    });
    await signIn(p, server);
    const banner = p.locator('.notify-banner');
    await banner.getByRole('button', { name: 'Enable' }).click();
    await banner.locator('.notify-text', { hasText: 'refused notifications' }).waitFor();
    assert.match(await banner.innerText(), /allow notifications for this site/);
    await banner.getByRole('button', { name: 'Dismiss' }).click();
    await banner.waitFor({ state: 'hidden' });
    await p.context().close();
  });
});
