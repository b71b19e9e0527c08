// Browser end-to-end for the chat's tool cards (issue 15), with the real Claude
// CLI against the fake Messages API's "tools:<name>" scripts
// (internal/testkit/fakeapi/reply_tools.go): a TodoWrite checklist pinned above
// the composer while the turn runs, a Write and an Edit as diffs with line
// numbers and a file link to the Diff tab, Bash output with ANSI colours (and
// a <script> that stays text), an image in a Read result, and a subagent's
// messages nested in its Task card, folded when it is done. Screenshots of
// the cards go to TOOLS_SHOTS (a directory) when it is set.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { access, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { desktop, launchBrowser, newPage, phone } from './browser.mjs';
import { claudeBin, claudeServerOptions, startFakeApi } from './fakeapi.mjs';
import { AgentdeskServer } from './server.mjs';

const waitMs = 30_000;
const run = promisify(execFile);
// A 1×1 PNG for the Read of an image (the fake's "image" script reads pixel.png).
const pixel = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

describe('tool cards with the real Claude CLI', { timeout: 400_000 }, () => {
  let tmp;
  let api;
  let server;
  let browser;
  let page;
  let cwd;
  let results = 0;

  before(async () => {
    await access(claudeBin);
    tmp = await mkdtemp(path.join(os.tmpdir(), 'agentdesk-tools-e2e-'));
    api = await startFakeApi(tmp);
    const opts = claudeServerOptions(api.url);
    // CLI 2.1.330 offers TodoWrite only with its task tools off.
    const env = (home) => ({ ...opts.env(home), CLAUDE_CODE_ENABLE_TASKS: '0', CLAUDE_CODE_ENABLE_TODO_TOOLS: '1' });
    server = await AgentdeskServer.start({ ...opts, env });
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    try {
      if (process.env.TOOLS_E2E_LOG) console.log(`${server?.output ?? ''}\n${api?.log() ?? ''}`);
      await server?.dispose();
    } finally {
      await api?.stop();
      if (tmp) await rm(tmp, { recursive: true, force: true });
    }
  });

  const pane = (p = page) => p.locator('.pane-chat:not([hidden])');

  /** Sends text; shown: a part of it the user bubble shows (markdown may render the rest differently). */
  async function send(text, shown = text) {
    const input = pane().locator('.chat-input');
    await page.waitForFunction((el) => !el.disabled, await input.elementHandle(), { timeout: waitMs });
    await input.fill(text);
    await input.press('Enter');
    await pane().locator('.chat-user', { hasText: shown }).last().waitFor({ timeout: waitMs });
  }

  /** Waits for the turn's footer, allowing every permission dialog on the way (at most 10). */
  async function finishTurn() {
    results++;
    for (let i = 0; i < 10; i++) {
      const state = await page.waitForFunction((n) => {
        const p = document.querySelector('.pane-chat:not([hidden])');
        if (p?.querySelector('.chat-perm') !== null) return 'ask';
        return (p?.querySelectorAll('.chat-result').length ?? 0) >= n ? 'done' : false;
      }, results, { timeout: waitMs }).then((h) => h.jsonValue()).catch(async (err) => {
        throw new Error(`turn ${results} did not end; pane shows:\n${await pane().innerText()}\nfake API:\n${api.log()}\n(${err.message})`);
      });
      if (state === 'done') return;
      const dialog = pane().locator('.chat-perm').first();
      await dialog.getByRole('button', { name: 'Allow', exact: true }).click();
      await dialog.waitFor({ state: 'detached', timeout: waitMs });
    }
    throw new Error('more than 10 permission dialogs in one turn');
  }

  const waitIdle = () => page.waitForFunction(() => document.querySelector('.pane-chat:not([hidden])')?.dataset.activity === 'idle',
    null, { timeout: waitMs });

  async function shot(name) {
    const dir = process.env.TOOLS_SHOTS;
    if (!dir) return;
    await mkdir(dir, { recursive: true });
    await page.screenshot({ path: path.join(dir, `${name}.png`) });
  }

  test('a session in a git repository opens its chat', async () => {
    cwd = await mkdtemp(path.join(tmp, 'work-'));
    await run('git', ['init', '-q', '-b', 'main'], { cwd });
    await writeFile(path.join(cwd, 'README.md'), '# tools\n');
    await run('git', ['-c', 'user.name=t', '-c', 'user.email=t@x', 'add', '.'], { cwd });
    await run('git', ['-c', 'user.name=t', '-c', 'user.email=t@x', 'commit', '-qm', 'init'], { cwd });
    await writeFile(path.join(cwd, 'aaa.txt'), 'first in the Diff tab\n');
    await writeFile(path.join(cwd, 'pixel.png'), pixel);
    page = await newPage(browser, desktop);
    await page.goto(`${server.url}/?token=${server.token}`);
    await page.locator('.conn[data-state="open"]').waitFor({ timeout: waitMs });
    await page.keyboard.press('Alt+N');
    await page.locator('#ns-cwd').fill(cwd);
    await page.locator('#ns-title').fill('tools e2e');
    await page.locator('#ns-agent').selectOption('sdk');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/\/s\/[^/]+/, { timeout: waitMs });
    await pane().locator('.chat-conn[data-state="open"]').waitFor({ timeout: waitMs });
  });

  test('TodoWrite is a checklist, pinned above the composer while the turn runs', async () => {
    await send('tools:todo');
    const first = pane().locator('.chat-tool[data-tool="TodoWrite"]').first();
    await first.locator('.todo-item').nth(2).waitFor({ timeout: waitMs });
    assert.deepEqual(await first.locator('.todo-item').evaluateAll((els) => els.map((e) => e.dataset.status)),
      ['completed', 'in_progress', 'pending']);
    assert.match(await first.locator('.todo-item[data-status="in_progress"]').innerText(), /Building the thing/);
    // The Bash call waits for permission: the turn runs, and the list is pinned.
    const dialog = pane().locator('.chat-perm');
    await dialog.waitFor({ timeout: waitMs });
    const pin = pane().locator('.todo-pin');
    await pin.waitFor({ state: 'visible', timeout: waitMs });
    assert.match(await pin.innerText(), /1\/3 done/);
    await shot('todo-pinned-desktop');
    await finishTurn();
    await waitIdle();
    await pin.waitFor({ state: 'hidden', timeout: waitMs });
    const last = pane().locator('.chat-tool[data-tool="TodoWrite"]').last();
    assert.equal(await last.locator('.todo-item[data-status="completed"]').count(), 3);
  });

  test('Write shows the new file highlighted; Edit a red/green diff with line numbers', async () => {
    await send('tools:edit');
    await finishTurn();
    const write = pane().locator('.chat-tool[data-tool="Write"]');
    await write.locator('.tool-newfile .dl').nth(4).waitFor({ timeout: waitMs });
    assert.equal(await write.locator('.tool-newfile .dl').count(), 5);
    assert.equal(await write.locator('.tk-k', { hasText: 'def' }).count(), 1, 'python keywords are highlighted');
    const edit = pane().locator('.chat-tool[data-tool="Edit"]');
    await edit.locator('.tool-result').waitFor({ timeout: waitMs });
    // Rows as [old number, new number, sign, text], from the result's structuredPatch
    // (the words only screen readers read, "added" and "removed", left out).
    const rows = await edit.locator('.dl').evaluateAll((els) => els.map((e) => [...e.children].map((c) =>
      [...c.childNodes].filter((n) => !n.classList?.contains('tool-sr')).map((n) => n.textContent).join(''))));
    assert.deepEqual(await edit.locator('.dl[data-kind="del"] .tool-sr').allTextContents(), ['removed']);
    const del = rows.filter((r) => r[2] === '-');
    const add = rows.filter((r) => r[2] === '+');
    assert.deepEqual(del, [['2', '', '-', '    return "hello " + name']]);
    assert.deepEqual(add, [['', '2', '+', '    # Say hello.'], ['', '3', '+', '    return f"hello {name}"']]);
    assert.equal(await edit.locator('.dl[data-kind="del"]').count(), 1);
    assert.equal(await edit.locator('.dl[data-kind="add"]').count(), 2);
    await edit.scrollIntoViewIfNeeded();
    await shot('edit-diff-desktop');

    // The file path opens the file in the session's Files tab (added by the click).
    const chatId = await pane().getAttribute('data-worker-id');
    await edit.locator('a.tool-file', { hasText: 'hello.py' }).click();
    const files = page.locator('.pane-files:not([hidden])');
    await files.locator('.fv-title', { hasText: 'hello.py' }).waitFor({ timeout: waitMs });
    await files.locator('.fv-line', { hasText: 'Say hello' }).waitFor({ timeout: waitMs });
    await page.locator(`#tab-${chatId}`).click();
    await pane().waitFor({ timeout: waitMs });
  });

  test('Bash output keeps its ANSI colours, and a <script> in it stays text', async () => {
    await send(String.raw`bash:printf '\033[1;31mred\033[0m plain <script>window.__pwned=1</script>\n'`, 'bash:printf');
    await finishTurn();
    const card = pane().locator('.chat-tool[data-tool="Bash"]').last();
    const red = card.locator('.tool-term span.ansi-fg1.ansi-bold');
    await red.waitFor({ timeout: waitMs });
    assert.equal(await red.innerText(), 'red');
    assert.match(await card.locator('.tool-term').innerText(), /^red plain <script>window\.__pwned=1<\/script>$/);
    assert.equal(await card.locator('script').count(), 0, 'no script element');
    assert.equal(await page.evaluate(() => window.__pwned), undefined);
    assert.doesNotMatch(await card.locator('.tool-term').innerText(), /\x1b|\[0m/, 'no escape codes shown');
  });

  test('an image in a tool result is shown', async () => {
    await send('tools:image');
    await finishTurn();
    const img = pane().locator('.chat-tool[data-tool="Read"] img.tool-image');
    await img.waitFor({ timeout: waitMs });
    assert.equal(await img.evaluate((i) => i.complete && i.naturalWidth), 1);
    assert.doesNotMatch(await pane().locator('.chat-tool[data-tool="Read"] .tool-result').innerText(), /\[image\]/);
  });

  test("a subagent's messages are nested in its Task card, live, and fold when it is done", async () => {
    await send('tools:agent');
    const task = pane().locator('.chat-tool[data-tool="Task"]');
    // The subagent's own Bash call, inside the Task card; it waits for permission, so the subagent runs.
    const nested = task.locator('.tool-sub .tool-children .chat-tool[data-tool="Bash"]');
    await nested.waitFor({ timeout: waitMs });
    await task.locator('.tool-sub .tool-children .chat-text', { hasText: 'Looking around.' }).waitFor({ timeout: waitMs });
    await pane().locator('.chat-perm', { hasText: 'touch surveyed.txt' }).waitFor({ timeout: waitMs });
    const running = await task.locator('details.tool-sub').evaluate((d) => ({ open: d.open, state: d.dataset.state }));
    assert.deepEqual(running, { open: true, state: 'running' }, 'open while the subagent runs');
    assert.equal(await pane().locator('.todo-pin').isHidden(), true, 'a list with every item done is not pinned');
    await task.scrollIntoViewIfNeeded();
    await shot('subagent-running-desktop');
    await finishTurn();
    const sub = task.locator('details.tool-sub');
    await page.waitForFunction((el) => el.dataset.state === 'completed' && !el.open, await sub.elementHandle(), { timeout: waitMs });
    assert.match(await sub.locator(':scope > summary').innerText(), /done · \d+ messages/);
    await sub.locator(':scope > summary').click();
    await nested.locator('.tool-result').waitFor({ timeout: waitMs });
    await task.scrollIntoViewIfNeeded();
    await shot('subagent-desktop');
    assert.deepEqual(page.errors.filter((e) => !/WebSocket connection to .* failed/.test(e)), [], 'no console errors');
  });

  test('screenshots: desktop and phone, light and dark', async () => {
    if (!process.env.TOOLS_SHOTS) return;
    const url = page.url();
    for (const [size, opts] of [['desktop', desktop], ['phone', phone]]) {
      for (const scheme of ['light', 'dark']) {
        const p = await newPage(browser, { ...opts, colorScheme: scheme });
        await p.goto(`${server.url}/?token=${server.token}`);
        await p.goto(url);
        await pane(p).locator('.chat-result').nth(results - 1).waitFor({ timeout: waitMs });
        for (const [tool, text] of [['TodoWrite', 'Write the tests'], ['Edit', 'hello.py'], ['Bash', 'printf'], ['Task', 'Survey']]) {
          const card = pane(p).locator(`.chat-tool[data-tool="${tool}"]`, { hasText: text }).last();
          await card.scrollIntoViewIfNeeded();
          await p.screenshot({ path: path.join(process.env.TOOLS_SHOTS, `${tool}-${size}-${scheme}.png`) });
        }
        const width = await p.evaluate(() => document.documentElement.scrollWidth);
        assert.ok(width <= opts.viewport.width, `no horizontal overflow (${width} px)`);
        await p.context().close();
      }
    }
  });
});
