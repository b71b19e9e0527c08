// Browser end-to-end for the CLI's own task tools (issue 15), with the real
// Claude CLI 2.1.330 against the fake Messages API's "tools:tasks" script
// (internal/testkit/fakeapi/reply_tasks.go): ToolSearch loads TaskCreate and
// TaskUpdate, three tasks are created, two updated, a Bash call waits for
// permission (the turn runs, the list is pinned), then the rest are done.
// The list is derived from the calls and their results (tools/task-list.ts),
// so it must also come back from the stored history after a reload.
// Screenshots go to TASKS_SHOTS (a directory) when it is set.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { desktop, launchBrowser, newPage, phone } from './browser.mjs';
import { claudeServerOptions, startFakeApi } from './fakeapi.mjs';
import { AgentdeskServer } from './server.mjs';

const waitMs = 30_000;

describe('the task tools as a checklist, with the real Claude CLI', { timeout: 300_000 }, () => {
  let tmp;
  let api;
  let server;
  let browser;
  let page;

  before(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'agentdesk-tasks-e2e-'));
    api = await startFakeApi(tmp);
    const opts = claudeServerOptions(api.url);
    // CLI 2.1.330 offers its task tools (and TodoWrite) to the fake's model only with this set.
    const env = (home) => ({ ...opts.env(home), CLAUDE_CODE_ENABLE_TODO_TOOLS: '1' });
    server = await AgentdeskServer.start({ ...opts, env });
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    try {
      if (process.env.TASKS_E2E_LOG) console.log(`${server?.output ?? ''}\n${api?.log() ?? ''}`);
      await server?.dispose();
    } finally {
      await api?.stop();
      if (tmp) await rm(tmp, { recursive: true, force: true });
    }
  });

  const pane = (p = page) => p.locator('.pane-chat:not([hidden])');
  const statuses = (list) => list.locator('.todo-item').evaluateAll((els) => els.map((e) => e.dataset.status));

  /** The pinned list: shown, with its head and three rows in these states. */
  async function pinned(p, head, want) {
    const pin = pane(p).locator('.todo-pin');
    await pin.waitFor({ state: 'visible', timeout: waitMs });
    await p.waitForFunction((el) => el.querySelectorAll('.todo-item').length === 3, await pin.elementHandle(), { timeout: waitMs });
    assert.match(await pin.innerText(), head);
    assert.deepEqual(await statuses(pin), want);
    return pin;
  }

  test('a session opens its chat', async () => {
    const cwd = await mkdtemp(path.join(tmp, 'work-'));
    page = await newPage(browser, desktop);
    await page.goto(`${server.url}/?token=${server.token}`);
    await page.locator('.conn[data-state="open"]').waitFor({ timeout: waitMs });
    await page.keyboard.press('Alt+N');
    await page.locator('#ns-cwd').fill(cwd);
    await page.locator('#ns-title').fill('tasks e2e');
    await page.locator('#ns-agent').selectOption('sdk');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/\/s\/[^/]+/, { timeout: waitMs });
    await pane().locator('.chat-conn[data-state="open"]').waitFor({ timeout: waitMs });
  });

  test('created and updated tasks are a checklist, pinned while the turn runs', async () => {
    const input = pane().locator('.chat-input');
    await page.waitForFunction((el) => !el.disabled, await input.elementHandle(), { timeout: waitMs });
    await input.fill('tools:tasks');
    await input.press('Enter');
    // The Bash call waits for permission: the turn runs, and the list is pinned.
    await pane().locator('.chat-perm').waitFor({ timeout: waitMs });
    const pin = await pinned(page, /Tasks · 1\/3 done/, ['completed', 'in_progress', 'pending']);
    assert.match(await pin.locator('.todo-item[data-status="in_progress"]').innerText(), /Building the thing/);
    // ToolSearch loaded the deferred task tools: their names, not tool_reference JSON.
    const search = pane().locator('.chat-tool[data-tool="ToolSearch"]');
    assert.match(await search.locator('.tool-result').textContent(), /Loaded TaskCreate, TaskUpdate/);
    // In the transcript: one row per call, in the checklist's style.
    const creates = pane().locator('.chat-tool[data-tool="TaskCreate"]');
    assert.equal(await creates.count(), 3);
    assert.deepEqual(await creates.locator('.todo-text').allInnerTexts(), ['Read the code', 'Build the thing', 'Write the tests']);
    const updates = pane().locator('.chat-tool[data-tool="TaskUpdate"]');
    assert.deepEqual(await statuses(updates.locator('.task-row')), ['completed', 'in_progress']);
    // The update's input has only the id: the row names the task from the list.
    assert.match(await updates.first().locator('.todo-text').innerText(), /^Read the code$/);
    await shot(page, 'tasks-pinned-desktop');
  });

  test('a reload rebuilds the pinned list from the stored history', async () => {
    await page.reload();
    await pane().locator('.chat-perm').waitFor({ timeout: waitMs });
    await pinned(page, /Tasks · 1\/3 done/, ['completed', 'in_progress', 'pending']);
    await screenshots('pinned');
  });

  test('the statuses update, and the pin goes when the turn is over', async () => {
    const dialog = pane().locator('.chat-perm').first();
    await dialog.getByRole('button', { name: 'Allow', exact: true }).click();
    await pane().locator('.chat-result').first().waitFor({ timeout: waitMs });
    await page.waitForFunction(() => document.querySelector('.pane-chat:not([hidden])')?.dataset.activity === 'idle', null, { timeout: waitMs });
    await pane().locator('.todo-pin').waitFor({ state: 'hidden', timeout: waitMs });
    const updates = pane().locator('.chat-tool[data-tool="TaskUpdate"]');
    assert.deepEqual(await statuses(updates.locator('.task-row')), ['completed', 'in_progress', 'completed', 'completed']);
    assert.deepEqual(await updates.locator('.task-row .todo-text').allInnerTexts(), ['Read the code', 'Build the thing', 'Build the thing', 'Write the tests']);
    await summarized();
  });

  /** The turn's last task card shows the whole list, all done. */
  async function summarized() {
    const summary = pane().locator('.task-summary');
    await summary.waitFor({ timeout: waitMs });
    assert.equal(await summary.count(), 1);
    assert.match(await summary.innerText(), /Tasks · 3\/3 done/);
    assert.deepEqual(await statuses(summary), ['completed', 'completed', 'completed']);
    assert.equal(await pane().locator('.chat-tool[data-tool="TaskUpdate"]').last().locator('.task-summary').count(), 1);
  }

  test('after a reload the checklist is still in the transcript, and nothing is pinned', async () => {
    await page.reload();
    await pane().locator('.chat-result').first().waitFor({ timeout: waitMs });
    assert.equal(await pane().locator('.chat-tool[data-tool="TaskCreate"] .todo-item').count(), 3);
    const updates = pane().locator('.chat-tool[data-tool="TaskUpdate"]');
    assert.deepEqual(await statuses(updates.locator('.task-row')), ['completed', 'in_progress', 'completed', 'completed']);
    assert.match(await updates.last().locator('.task-row .todo-text').innerText(), /^Write the tests$/);
    await summarized();
    assert.equal(await pane().locator('.todo-pin').isHidden(), true);
    await screenshots('done');
    assert.deepEqual(page.errors.filter((e) => !/WebSocket connection to .* failed/.test(e)), [], 'no console errors');
  });

  async function shot(p, name) {
    const dir = process.env.TASKS_SHOTS;
    if (!dir) return;
    await mkdir(dir, { recursive: true });
    await p.screenshot({ path: path.join(dir, `${name}.png`) });
  }

  /** Desktop and phone, light and dark, while the list is pinned or once the turn is done; no horizontal overflow. */
  async function screenshots(stage) {
    if (!process.env.TASKS_SHOTS) return;
    const url = page.url();
    for (const [size, opts] of [['desktop', desktop], ['phone', phone]]) {
      for (const scheme of ['light', 'dark']) {
        const p = await newPage(browser, { ...opts, colorScheme: scheme });
        await p.goto(`${server.url}/?token=${server.token}`);
        await p.goto(url);
        if (stage === 'pinned') {
          await pinned(p, /1\/3 done/, ['completed', 'in_progress', 'pending']);
          await pane(p).locator('.chat-tool[data-tool="TaskUpdate"]').last().scrollIntoViewIfNeeded();
        } else {
          await pane(p).locator('.chat-result').first().waitFor({ timeout: waitMs });
          await pane(p).locator('.task-summary').scrollIntoViewIfNeeded();
        }
        await shot(p, `tasks-${stage}-${size}-${scheme}`);
        const width = await p.evaluate(() => document.documentElement.scrollWidth);
        assert.ok(width <= opts.viewport.width, `no horizontal overflow (${width} px)`);
        await p.context().close();
      }
    }
  }
});
