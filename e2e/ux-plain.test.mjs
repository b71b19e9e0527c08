// Browser tests of plain words where a new user tripped (issue 22, items 13
// and 21), at phone and desktop size: a model change reads "Model: Sonnet
// 4.5", never the CLI's raw <local-command-stdout> record; a turn cut short
// before it used anything shows no cost; the new-session form says
// "folder", and its error goes once the path is being fixed; a read-only
// chat's hint names what is there (an archived session, the tab where the
// conversation goes on); the top bar stays on one line at 1280 px with the
// usage meter and lists Ctrl+K among the shortcuts.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { desktop, launchBrowser, newPage, phone } from './browser.mjs';
import { api, makeRepo, overflow, signIn, startWithFakeClaude } from './ux.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const sizes = [['phone', phone], ['desktop', desktop]];

/** A turn interrupted before the API answered: nothing used, nothing spent. */
function interruptedTurn() {
  const sid = '{{SESSION_ID}}';
  return [
    { type: 'system', subtype: 'init', cwd: '{{CWD}}', session_id: sid, tools: ['Bash'], model: 'claude-fake', permissionMode: 'default', uuid: '{{UUID}}' },
    { type: 'user', message: { role: 'user', content: [{ type: 'text', text: '[Request interrupted by user]' }] }, parent_tool_use_id: null, session_id: sid, uuid: '{{UUID}}' },
    { type: 'result', subtype: 'error_during_execution', is_error: true, duration_ms: 40, num_turns: 0, session_id: sid, total_cost_usd: 0, usage: { input_tokens: 0, output_tokens: 0 }, uuid: '{{UUID}}' },
  ];
}

describe('plain words', { timeout: 400_000 }, () => {
  let tmp;
  let server;
  let browser;

  before(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'agentdesk-ux-plain-'));
    server = await startWithFakeClaude(tmp, interruptedTurn());
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await server?.dispose();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  const chat = (p) => p.locator('.pane-chat:not([hidden])');

  for (const [size, opts] of sizes) {
    test(`${size}: a model change is a small note; an interrupted turn of no tokens shows no cost`, async () => {
      const s = await api(server, 'POST', '/api/sessions', { cwd: await server.tempDir(), title: `notes ${size}` });
      const w = s.workers[0];
      const p = await newPage(browser, opts);
      await signIn(p, server, `/s/${s.id}/w/${w.id}`);
      await chat(p).locator('.chat-conn[data-state="open"]').waitFor();
      await api(server, 'POST', `/api/sessions/${s.id}/workers/${w.id}/input`, { content: 'go' });
      const footer = chat(p).locator('.chat-result');
      await footer.waitFor();
      const said = await footer.innerText();
      assert.match(said, /^Interrupted\b/);
      assert.doesNotMatch(said, /\$|tokens/, 'no "0 in / 0 out tokens", no "$0"');

      await api(server, 'PATCH', `/api/sessions/${s.id}/workers/${w.id}`, { model: 'claude-sonnet-4-5-20250929' });
      await chat(p).locator('.chat-model-note', { hasText: /^Model: Sonnet 4\.5$/ }).waitFor();
      await api(server, 'PATCH', `/api/sessions/${s.id}/workers/${w.id}`, { model: 'haiku' });
      await chat(p).locator('.chat-model-note', { hasText: /^Model: Haiku$/ }).waitFor();
      await api(server, 'PATCH', `/api/sessions/${s.id}/workers/${w.id}`, { permissionMode: 'acceptEdits' });
      await chat(p).locator('.chat-mode-note', { hasText: /^Mode: Accept edits$/ }).waitFor();
      // The same after a reload, from the stored lines.
      await p.reload();
      await chat(p).locator('.chat-model-note', { hasText: /^Model: Haiku$/ }).waitFor();
      const text = await chat(p).locator('.chat-scroll').innerText();
      assert.doesNotMatch(text, /local-command|Set model to/, 'no raw record of the CLI');
      assert.deepEqual(await chat(p).locator('.chat-user .chat-user-text').allInnerTexts(), ['go'], 'no user bubble for the model change');
      assert.deepEqual(p.errors, []);
      await p.context().close();
    });

    test(`${size}: the new-session form says folder, and its error goes once the path is fixed`, async () => {
      const p = await newPage(browser, opts);
      await signIn(p, server);
      if (size === 'phone') await p.locator('.menu-btn').click();
      await p.getByRole('button', { name: '+ New session' }).first().click();
      assert.equal(await p.locator('label[for="ns-cwd"]').innerText(), 'Folder');
      await p.locator('#ns-cwd').fill('/no/such/folder');
      await p.locator('#ns-agent').selectOption('none');
      await p.getByRole('button', { name: 'Create' }).click();
      const err = p.locator('#ns-error');
      await err.filter({ hasText: /\S/ }).waitFor();
      const said = await err.innerText();
      assert.equal(said, 'The folder "/no/such/folder" does not exist or cannot be read.');
      assert.doesNotMatch(said, /\bcwd\b/);
      await p.locator('#ns-cwd').fill(await server.tempDir());
      assert.equal(await err.innerText(), '', 'the error about the old path is gone');
      assert.equal(await p.locator('#ns-cwd').getAttribute('aria-invalid'), null);
      assert.deepEqual(p.errors.filter((e) => !/status of 400/.test(e)), []);
      await p.context().close();
    });
  }

  test('phone: a read-only chat names what is there: the tab the conversation went to, an archived session', async () => {
    const s = await api(server, 'POST', '/api/sessions', { cwd: await server.tempDir(), title: 'moved on' });
    const first = s.workers[0];
    await api(server, 'POST', `/api/sessions/${s.id}/switch`, { to: 'pty-agent' });
    const p = await newPage(browser, phone);
    await signIn(p, server, `/s/${s.id}/w/${first.id}`);
    const hint = async () => chat(p).locator('.chat-hint').innerText();
    await chat(p).locator('.chat-hint', { hasText: 'no longer drives' }).waitFor();
    assert.equal(await hint(), 'This chat no longer drives the conversation: it goes on in the “Terminal” tab.');

    const repo = await makeRepo(tmp, 'archived-proj');
    const wt = await api(server, 'POST', '/api/sessions', { repo, branch: 'feat/archive-me', worktree: true, title: 'archived' });
    await api(server, 'POST', '/api/worktrees/cleanup', { paths: [wt.worktree.path] });
    assert.equal((await api(server, 'GET', `/api/sessions/${wt.id}`)).archived, true);
    await p.goto(`${server.url}/s/${wt.id}/w/${wt.workers.find((w) => w.kind === 'sdk').id}`);
    await chat(p).locator('.chat-hint', { hasText: 'archived' }).waitFor();
    const said = await hint();
    assert.match(said, /^This session is archived/);
    assert.doesNotMatch(said, /Back to chat|Open in terminal/, 'no button that is not there');
    assert.equal(await p.locator('.switch-agent').isVisible(), false);
    assert.deepEqual(p.errors, []);
    await p.context().close();
  });

  test('desktop: the top bar stays on one line at 1280 px with the usage meter, and lists Ctrl+K', async () => {
    const s = await api(server, 'POST', '/api/sessions', { cwd: await server.tempDir(), title: 'metered' });
    const text = await readFile(path.join(repoRoot, 'internal/usage/testdata/ratelimit_nearlimit.jsonl'), 'utf8');
    const info = JSON.parse(text.split('\n').find((l) => l.includes('"rate_limit_event"'))).rate_limit_info;
    for (const width of [1280, 800]) {
      const p = await newPage(browser, { viewport: { width, height: 800 } });
      await p.route('**/api/rate-limits', (route) => route.fulfill({ status: 200, contentType: 'application/json',
        body: JSON.stringify({ rateLimit: { ...info, info, updatedAt: new Date().toISOString(), sessionId: s.id, workerId: s.workers[0].id } }) }));
      await signIn(p, server, `/s/${s.id}`);
      await p.locator('.rate-meter:not([hidden])').waitFor();
      // Every item's text on one line.
      const wrapped = await p.evaluate(() => [...document.querySelectorAll('.topbar > *')].filter((el) => {
        // The boxes of its visible text: on one line, their tops are within half a line.
        const boxes = [];
        const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
        for (let n = walk.nextNode(); n !== null; n = walk.nextNode()) {
          if (!n.parentElement.checkVisibility()) continue;
          const r = document.createRange();
          r.selectNodeContents(n);
          boxes.push(...[...r.getClientRects()].filter((b) => b.width > 0 && b.height > 0));
        }
        if (boxes.length === 0) return false;
        const tops = boxes.map((b) => b.top);
        return Math.max(...tops) - Math.min(...tops) > 0.6 * Math.max(...boxes.map((b) => b.height));
      }).map((el) => el.className));
      assert.deepEqual(wrapped, [], `nothing in the top bar wraps at ${width} px`);
      assert.deepEqual(await overflow(p), [], `the top bar fits at ${width} px`);
      if (width === 1280) {
        await p.getByText('Shortcuts', { exact: true }).click();
        const list = p.locator('.shortcuts-list');
        await list.waitFor();
        assert.match(await list.innerText(), /Ctrl\+K\s+Search every conversation/);
        const sticking = await list.evaluate((el) => [...el.querySelectorAll('dd')]
          .filter((d) => d.getBoundingClientRect().right > el.getBoundingClientRect().right + 1).map((d) => d.textContent));
        assert.deepEqual(sticking, [], 'every description stays inside the list');
        await p.keyboard.press('Escape');
        await list.waitFor({ state: 'hidden' });
      }
      assert.deepEqual(p.errors, []);
      await p.context().close();
    }
  });
});
