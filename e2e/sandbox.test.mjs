// Browser end-to-end for sandboxed sessions, with the real Claude CLI against
// the fake Messages API and real bubblewrap: the new-session form offers the
// sandbox (and bypass permissions in it), the session header shows the badge,
// its panel lists what the box shows, a chat turn runs in the box (its Bash
// tool without asking) and a terminal command too, whose box has loopback only
// and a private home. At 1280x800 and 390x844. Bypass permissions asks first
// outside a sandbox; in one it is offered, and the running CLI takes it.
import assert from 'node:assert/strict';
import { access, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { desktop, launchBrowser, newPage, phone, terminalLines, waitForTerminalLine, waitMs } from './browser.mjs';
import { claudeBin, claudeServerOptions, startFakeApi } from './fakeapi.mjs';
import { sandboxSkip } from './sandbox-tools.mjs';
import { AgentdeskServer } from './server.mjs';

const echoRe = (text) => new RegExp(`Echo: ${text} \\(request had \\d+ messages\\)`);
const expectedNoise = [/WebSocket connection to .* failed/];

describe('sandboxed sessions in a browser', { timeout: 600_000, skip: sandboxSkip('the sandbox browser test') }, () => {
  let tmp;
  let api;
  let server;
  let browser;

  before(async () => {
    await access(claudeBin);
    tmp = await mkdtemp(path.join(os.tmpdir(), 'agentdesk-sandbox-e2e-'));
    api = await startFakeApi(tmp);
    server = await AgentdeskServer.start(claudeServerOptions(api.url));
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    try {
      if (process.env.SANDBOX_E2E_LOG) console.log(`${server?.output ?? ''}\n${api?.log() ?? ''}`);
      await server?.dispose();
    } finally {
      await api?.stop();
      if (tmp) await rm(tmp, { recursive: true, force: true });
    }
  });

  /** POST /api/sessions as the test, not the page. */
  async function createSession(body) {
    const res = await fetch(`${server.url}/api/sessions`, {
      method: 'POST', headers: { Authorization: `Bearer ${server.token}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body),
    });
    assert.equal(res.status, 201, await res.clone().text());
    return res.json();
  }

  test('bypass permissions: asked first outside a sandbox, offered in one (and the live CLI takes it)', async () => {
    const page = await newPage(browser, desktop);
    const pane = () => page.locator('.pane-chat:not([hidden])');
    const waitMode = (name) => page.waitForFunction((n) => document.querySelector('.pane-chat:not([hidden]) .set-mode')?.textContent?.startsWith(n), name);
    const pickMode = async (value) => {
      await pane().locator('.set-mode').click();
      await pane().locator(`.set-mode + .menu [data-value="${value}"]`).click();
    };
    await page.goto(`${server.url}/?token=${server.token}`);
    await page.locator('.conn[data-state="open"]').waitFor();

    const plain = await createSession({ cwd: await mkdtemp(path.join(tmp, 'plain-')), agent: 'sdk', title: 'plain' });
    await page.goto(`${server.url}/s/${plain.id}`);
    await pane().locator('.set-mode').waitFor();
    await pickMode('bypassPermissions');
    const dialog = page.locator('dialog[open]', { hasText: 'Bypass permissions outside a sandbox?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    await waitMode('Ask before edits');
    const w = await (await fetch(`${server.url}/api/sessions/${plain.id}`, { headers: { Authorization: `Bearer ${server.token}` } })).json();
    assert.equal(w.workers[0].permissionMode ?? '', '', 'a cancelled bypass changes nothing');

    const boxed = await createSession({ cwd: await mkdtemp(path.join(tmp, 'boxed-')), agent: 'sdk', title: 'boxed', sandbox: 'workspace' });
    await page.goto(`${server.url}/s/${boxed.id}`);
    await pane().locator('.chat-conn[data-state="open"]').waitFor();
    await page.waitForFunction(() => document.querySelector('.pane-chat:not([hidden]) .chat-send')?.textContent === 'Send');
    await pane().locator('.chat-input').fill('warm up');
    await pane().getByRole('button', { name: 'Send', exact: true }).click();
    await pane().locator('.chat-text', { hasText: echoRe('warm up') }).waitFor();
    // The CLI runs: the mode goes to it live, which it takes only because the box started it allowing bypass.
    await pickMode('bypassPermissions');
    await waitMode('Bypass permissions');
    assert.equal(await page.locator('dialog[open]').count(), 0, 'no question in a sandbox');
    assert.deepEqual(page.errors.filter((e) => !expectedNoise.some((re) => re.test(e))), [], 'no console errors');
    await page.context().close();
  });

  for (const [name, size] of [['1280', desktop], ['390', phone]]) {
    test(`at ${name}: create a sandboxed session, see its badge and panel, run a turn and a terminal command`, async () => {
      const page = await newPage(browser, size);
      const chat = () => page.locator('.pane-chat:not([hidden])');
      const explain = async (what, err) => new Error(`${what}: ${err.message}\npage:\n${await page.locator('body').innerText().catch(() => '')}\n` +
        `terminal:\n${(await terminalLines(page).catch(() => [])).join('\n')}\nserver:\n${server.output}`);
      await page.goto(`${server.url}/?token=${server.token}`);
      await page.locator('.conn[data-state="open"]').waitFor();

      const cwd = await mkdtemp(path.join(tmp, `work-${name}-`));
      await page.keyboard.press('Alt+N');
      await page.locator('#ns-cwd').fill(cwd);
      await page.locator('#ns-title').fill(`boxed ${name}`);
      await page.locator('#ns-agent').selectOption('sdk');
      // The levels come from GET /api/capabilities: all of them run here.
      await page.waitForFunction(() => !document.querySelector('#ns-sandbox option[value="workspace"]')?.disabled);
      assert.equal(await page.locator('#ns-bypass').isVisible(), false, 'bypass is offered only in a box');
      await page.locator('#ns-sandbox').selectOption('workspace');
      await page.locator('#ns-bypass').check();
      if (process.env.SHOTS_DIR) await page.screenshot({ path: path.join(process.env.SHOTS_DIR, `sandbox-form-${name}.png`) });
      await page.getByRole('button', { name: 'Create' }).click();
      await page.waitForURL(/\/s\/[^/]+/);

      // The badge, and the panel of what the box shows.
      const badge = page.locator('.sandbox-badge');
      await badge.waitFor();
      assert.match(await badge.innerText(), /Sandboxed/);
      await badge.click();
      const panel = page.locator('.sandbox-panel');
      await panel.waitFor();
      const text = await panel.innerText();
      assert.match(text, /Sandbox: workspace/);
      assert.ok(text.includes(cwd), 'the work tree is listed');
      assert.match(text, /Writable[\s\S]*Read-only[\s\S]*\/usr/);
      assert.match(text, /Loopback only/);
      const box = await panel.boundingBox();
      assert.ok(box !== null && box.x >= 0 && box.x + box.width <= size.viewport.width, `the panel fits the width (${JSON.stringify(box)})`);
      if (process.env.SHOTS_DIR) await page.screenshot({ path: path.join(process.env.SHOTS_DIR, `sandbox-panel-${name}.png`) });
      await page.keyboard.press('Escape');
      await panel.waitFor({ state: 'hidden' });
      assert.equal(await badge.getAttribute('aria-expanded'), 'false');

      // A turn whose Bash tool writes into the work tree: no question asked.
      await chat().locator('.chat-conn[data-state="open"]').waitFor();
      const input = chat().locator('.chat-input');
      await page.waitForFunction(() => {
        const el = document.querySelector('.pane-chat:not([hidden]) .chat-input');
        return el !== null && !el.disabled;
      });
      // On a phone Enter adds a line: the Send button sends at every size.
      const send = chat().getByRole('button', { name: 'Send', exact: true });
      await input.fill('bash: echo inside > boxed.txt');
      await send.click();
      try {
        await chat().locator('.chat-text', { hasText: /Tool finished/ }).waitFor({ timeout: waitMs });
      } catch (err) {
        throw await explain('the sandboxed turn did not finish', err);
      }
      assert.equal((await readFile(path.join(cwd, 'boxed.txt'), 'utf8')).trim(), 'inside');
      await input.fill('hello box');
      await send.click();
      await chat().locator('.chat-text', { hasText: echoRe('hello box') }).waitFor();

      // A shell in the same box: loopback only, a home of its own.
      await page.getByRole('button', { name: 'Add worker' }).click();
      await page.getByRole('menuitem', { name: 'Shell', exact: true }).click();
      await page.locator('.pane-terminal:not([hidden]) .term-status[data-state="open"]').waitFor();
      await page.locator('.pane-terminal:not([hidden]) .xterm').click();
      await page.keyboard.type(`echo "net=$(tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' ' | tr '\\n' ,)"; case "$HOME" in ${server.dataDir}/*) echo home=private;; *) echo home=other;; esac`);
      await page.keyboard.press('Enter');
      try {
        await waitForTerminalLine(page, 'net=lo,');
        await waitForTerminalLine(page, 'home=private');
      } catch (err) {
        throw await explain('the terminal is not in the box', err);
      }
      if (process.env.SHOTS_DIR) await page.screenshot({ path: path.join(process.env.SHOTS_DIR, `sandbox-terminal-${name}.png`) });
      assert.deepEqual(page.errors.filter((e) => !expectedNoise.some((re) => re.test(e))), [], 'no console errors');
      await page.context().close();
    });
  }
});
