// Browser end-to-end for the chat header's settings, plans and "Always allow",
// with the real Claude CLI against the fake Messages API: the mode picker and
// Alt+M, the model picker, the plan card (rendered plan, Keep planning,
// Approve and auto-accept edits), an "Always allow … in this session" button
// that stops the second prompt, the rules menu removing the rule, and the
// header on a 390 px phone. Screenshots go to $SETTINGS_SHOTS when set.
import assert from 'node:assert/strict';
import { access, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { desktop, launchBrowser, newPage, phone } from './browser.mjs';
import { claudeBin, claudeServerOptions, startFakeApi } from './fakeapi.mjs';
import { AgentdeskServer } from './server.mjs';
import { api, overflow } from './ux.mjs';

const waitMs = 30_000;
const shots = process.env.SETTINGS_SHOTS ?? '';

describe('chat settings, plans and rules with the real Claude CLI', { timeout: 400_000 }, () => {
  let tmp;
  let fake;
  let server;
  let browser;
  let page;
  let sid;
  let wid;

  before(async () => {
    await access(claudeBin);
    tmp = await mkdtemp(path.join(os.tmpdir(), 'agentdesk-settings-e2e-'));
    fake = await startFakeApi(tmp);
    server = await AgentdeskServer.start(claudeServerOptions(fake.url));
    browser = await launchBrowser();
    if (shots !== '') await mkdir(shots, { recursive: true });
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

  const pane = (p = page) => p.locator('.pane-chat:not([hidden])');
  const modeBtn = (p = page) => pane(p).locator('.set-mode');
  const worker = () => api(server, 'GET', `/api/sessions/${sid}/workers/${wid}`);

  async function shot(name, p = page) {
    if (shots !== '') await p.screenshot({ path: path.join(shots, `${name}.png`) });
  }

  async function send(text) {
    const input = pane().locator('.chat-input');
    await page.waitForFunction((el) => !el.disabled, await input.elementHandle(), { timeout: waitMs });
    // The turn before has ended (Send, not Queue): the message starts a turn of its own.
    await page.waitForFunction(() => document.querySelector('.pane-chat:not([hidden]) .chat-send')?.textContent === 'Send', null, { timeout: waitMs });
    await input.fill(text);
    await input.press('Enter');
    await pane().locator('.chat-user', { hasText: text }).last().waitFor({ timeout: waitMs });
  }

  async function waitResults(n) {
    await page.waitForFunction((n) => document.querySelectorAll('.pane-chat:not([hidden]) .chat-result').length >= n, n, { timeout: waitMs });
  }

  async function waitMode(name) {
    await page.waitForFunction((name) => document.querySelector('.pane-chat:not([hidden]) .set-mode')?.textContent?.startsWith(name), name, { timeout: waitMs });
  }

  test('the mode picker and Alt+M change the mode', async () => {
    page = await newPage(browser, { ...desktop, colorScheme: 'dark' });
    await page.goto(`${server.url}/?token=${server.token}`);
    await page.locator('.conn[data-state="open"]').waitFor({ timeout: waitMs });
    const cwd = await mkdtemp(path.join(tmp, 'work-'));
    const s = await api(server, 'POST', '/api/sessions', { cwd, agent: 'sdk', title: 'settings e2e' });
    sid = s.id;
    wid = s.workers[0].id;
    await page.goto(`${server.url}/s/${sid}`);
    await pane().locator('.chat-conn[data-state="open"]').waitFor({ timeout: waitMs });
    await waitMode('Ask before edits');

    await modeBtn().click();
    await pane().getByRole('menuitem', { name: 'Plan' }).click();
    await waitMode('Plan');
    assert.equal((await worker()).permissionMode, 'plan');

    // Keyboard: Alt+M cycles plan → default → acceptEdits (Shift+Tab moves the focus).
    await pane().locator('.chat-input').focus();
    await page.keyboard.press('Alt+m');
    await waitMode('Ask before edits');
    await page.keyboard.press('Alt+m');
    await waitMode('Accept edits');
    assert.equal((await worker()).permissionMode, 'acceptEdits');
    // And through the menu with the keyboard alone.
    await modeBtn().focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('End');
    await page.keyboard.press('ArrowUp'); // Plan
    await page.keyboard.press('Enter');
    await waitMode('Plan');
  });

  test('the model picker lists the CLI\'s models and switches', async () => {
    await pane().locator('.set-model').click();
    const sonnet = pane().locator('.set-model + .menu [data-value="sonnet"]');
    await sonnet.waitFor({ timeout: waitMs });
    await shot('desktop-dark-model-menu');
    await sonnet.click();
    await page.waitForFunction(() => /sonnet/i.test(document.querySelector('.pane-chat:not([hidden]) .set-model')?.textContent ?? ''), null, { timeout: waitMs });
    assert.equal((await worker()).model, 'sonnet');
  });

  test('a plan shows rendered; Keep planning sends feedback; approval switches the mode', async () => {
    await send('make a plan');
    const card = pane().locator('.chat-plan');
    await card.waitFor({ timeout: waitMs });
    assert.equal(await card.locator('.plan-body strong', { hasText: 'hello' }).count(), 1, 'markdown rendered');
    assert.equal(await card.locator('script').count(), 0, 'no raw HTML');
    await shot('desktop-dark-plan');
    await card.locator('.plan-feedback').fill('add a test step');
    await card.getByRole('button', { name: 'Keep planning' }).click();
    await card.waitFor({ state: 'detached', timeout: waitMs });
    await waitResults(1);
    await pane().locator('.chat-text', { hasText: 'add a test step' }).first().waitFor({ timeout: waitMs });

    await send('make a plan again');
    await pane().locator('.chat-plan').waitFor({ timeout: waitMs });
    await page.emulateMedia({ colorScheme: 'light' });
    await shot('desktop-light-plan');
    await pane().getByRole('button', { name: 'Approve and auto-accept edits' }).click();
    await pane().locator('.chat-plan').waitFor({ state: 'detached', timeout: waitMs });
    await waitResults(2);
    await waitMode('Accept edits');
    assert.equal((await worker()).permissionMode, 'acceptEdits');
  });

  test('"Always allow" stops the second prompt; the rules menu removes the rule', async () => {
    await modeBtn().click();
    await pane().getByRole('menuitem', { name: 'Ask before edits' }).click();
    await waitMode('Ask before edits');
    await send('bash:touch y.txt');
    const card = pane().locator('.chat-perm');
    await card.waitFor({ timeout: waitMs });
    const always = card.locator('.perm-always[data-destination="session"]');
    assert.match(await always.innerText(), /Always allow touch y\.txt in this session/);
    await shot('desktop-light-suggestions');
    await always.click();
    await card.waitFor({ state: 'detached', timeout: waitMs });
    await waitResults(3);
    const rules = pane().locator('.set-rules');
    await page.waitForFunction(() => document.querySelector('.pane-chat:not([hidden]) .set-rules')?.textContent?.startsWith('Rules (1)'), null, { timeout: waitMs });

    await send('bash:touch y.txt');
    await waitResults(4);
    assert.equal(await pane().locator('.chat-perm').count(), 0, 'no second prompt');

    await rules.click();
    await shot('desktop-light-rules');
    await pane().getByRole('menuitem', { name: /Remove Bash\(touch y\.txt\)/ }).click();
    await page.waitForFunction(() => document.querySelector('.pane-chat:not([hidden]) .set-rules')?.closest('.menu-wrap')?.hidden === true, null, { timeout: waitMs });
    const s = await api(server, 'GET', `/api/sessions/${sid}`);
    assert.equal(s.permissionRules, null, 'no rule left');
  });

  test('the header fits a 390 px phone, touch targets ≥ 40 px', async () => {
    for (const scheme of ['light', 'dark']) {
      const p = await newPage(browser, { ...phone, colorScheme: scheme });
      await p.goto(`${server.url}/?token=${server.token}`);
      await p.goto(`${server.url}/s/${sid}`);
      await pane(p).locator('.chat-conn[data-state="open"]').waitFor({ timeout: waitMs });
      assert.deepEqual(await overflow(p), [], 'nothing sticks out');
      for (const sel of ['.set-model', '.set-mode']) {
        const box = await pane(p).locator(sel).boundingBox();
        assert.ok(box !== null && box.height >= 40 && box.x + box.width <= 390, `${sel} ${JSON.stringify(box)}`);
      }
      await shot(`phone-${scheme}-header`, p);
      await pane(p).locator('.set-mode').click();
      await shot(`phone-${scheme}-mode-menu`, p);
      assert.deepEqual(await overflow(p), [], 'the open menu fits');
      await p.keyboard.press('Escape');
      if (scheme === 'light') {
        // A plan on the phone: it fits, its buttons are big enough, and
        // "Approve, ask for each edit" sets the mode to default.
        await api(server, 'PATCH', `/api/sessions/${sid}/workers/${wid}`, { permissionMode: 'plan' });
        await api(server, 'POST', `/api/sessions/${sid}/workers/${wid}/input`, { content: 'make a phone plan' });
        const card = pane(p).locator('.chat-plan');
        await card.waitFor({ timeout: waitMs });
        assert.deepEqual(await overflow(p), [], 'the plan card fits');
        for (const b of await card.locator('button').all()) {
          const box = await b.boundingBox();
          assert.ok(box !== null && box.height >= 40, `plan button ${JSON.stringify(box)}`);
        }
        await shot('phone-light-plan', p);
        await card.getByRole('button', { name: 'Approve, ask for each edit' }).click();
        await card.waitFor({ state: 'detached', timeout: waitMs });
        await p.waitForFunction(() => document.querySelector('.pane-chat:not([hidden]) .set-mode')?.textContent?.startsWith('Ask before edits'), null, { timeout: waitMs });
        assert.equal((await worker()).permissionMode, 'default');
      }
      await p.context().close();
    }
  });

  test('with nothing chosen, the header and the Worker say what Claude\'s own settings run', async () => {
    // Issue 22, item 2: the project's settings.json picks the model and mode.
    const cwd = await mkdtemp(path.join(tmp, 'own-'));
    await mkdir(path.join(cwd, '.claude'));
    await writeFile(path.join(cwd, '.claude', 'settings.json'),
      JSON.stringify({ model: 'claude-haiku-4-5', permissions: { defaultMode: 'acceptEdits' } }));
    const s = await api(server, 'POST', '/api/sessions', { cwd, agent: 'sdk', title: 'own settings' });
    const w = s.workers.find((x) => x.kind === 'sdk');
    const p = await newPage(browser, { ...desktop, colorScheme: 'light' });
    await p.goto(`${server.url}/?token=${server.token}`);
    await p.goto(`${server.url}/s/${s.id}`);
    await pane(p).locator('.chat-conn[data-state="open"]').waitFor({ timeout: waitMs });
    await pane(p).locator('.chat-input').fill('hello');
    await pane(p).locator('.chat-input').press('Enter');
    await pane(p).locator('.chat-result').first().waitFor({ timeout: waitMs });
    // The chip reads the model's short name; its accessible name, the id the CLI runs.
    await p.waitForFunction(() => document.querySelector('.pane-chat:not([hidden]) .set-model')?.textContent?.startsWith('Haiku 4.5'), null, { timeout: waitMs });
    assert.match(await pane(p).locator('.set-model').getAttribute('aria-label'), /^Model: claude-haiku-4-5, from Claude's own settings/);
    await p.waitForFunction(() => document.querySelector('.pane-chat:not([hidden]) .set-mode')?.textContent?.startsWith('Accept edits'), null, { timeout: waitMs });
    const got = await api(server, 'GET', `/api/sessions/${s.id}/workers/${w.id}`);
    assert.equal(got.model, undefined, 'no model chosen');
    assert.equal(got.permissionMode, undefined, 'no mode chosen');
    assert.deepEqual(got.current, { model: 'claude-haiku-4-5', permissionMode: 'acceptEdits' });
    assert.equal(await pane(p).locator('.set-mode').getAttribute('data-chosen'), 'false');
    assert.match(await pane(p).locator('.set-mode').getAttribute('aria-label'), /from Claude's own settings/);
    await pane(p).locator('.set-mode').click();
    assert.match(await pane(p).locator('.set-mode + .menu .set-source').innerText(), /Now: Accept edits, from Claude's own settings/);
    await shot('desktop-light-own-settings', p);
    await p.keyboard.press('Escape');

    // A choice is marked as one, in the Worker and the header.
    await api(server, 'PATCH', `/api/sessions/${s.id}/workers/${w.id}`, { permissionMode: 'plan' });
    await p.waitForFunction(() => document.querySelector('.pane-chat:not([hidden]) .set-mode')?.dataset.chosen === 'true', null, { timeout: waitMs });
    const chosen = await api(server, 'GET', `/api/sessions/${s.id}/workers/${w.id}`);
    assert.equal(chosen.permissionMode, 'plan');
    assert.equal(chosen.current.model, 'claude-haiku-4-5');
    await p.context().close();
  });
});
