// Browser end-to-end of a built-in browser tool through the real Claude CLI
// (node_modules/.bin/claude) and the fake Messages API (issue 26): the agent
// calls mcp__agentdesk__ask_user, the permission card names its provider,
// the tab that shows the session (the provider, over /ws/tools) shows the
// form, the person answers, and the answer reaches the model: the turn
// goes on. At desktop (1280x800, light) and phone (390x844, dark) size. Screenshots go to
// $TOOLS_SHOTS when set.
import assert from 'node:assert/strict';
import { access, mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { desktop, launchBrowser, newPage, phone } from './browser.mjs';
import { claudeBin, claudeServerOptions, startFakeApi } from './fakeapi.mjs';
import { AgentdeskServer } from './server.mjs';
import { api, overflow, signIn } from './ux.mjs';

const waitMs = 60_000;
const shots = process.env.TOOLS_SHOTS ?? '';

describe('ask_user through the real CLI', { timeout: 400_000 }, () => {
  let tmp;
  let fake;
  let server;
  let browser;

  before(async () => {
    await access(claudeBin);
    tmp = await mkdtemp(path.join(os.tmpdir(), 'agentdesk-ask-e2e-'));
    fake = await startFakeApi(tmp);
    server = await AgentdeskServer.start(claudeServerOptions(fake.url));
    browser = await launchBrowser();
    if (shots !== '') await mkdir(shots, { recursive: true });
  });

  after(async () => {
    await browser?.close();
    try {
      if (process.env.ASK_E2E_LOG) console.log(`${server?.output ?? ''}\n${fake?.log() ?? ''}`);
      await server?.dispose();
    } finally {
      await fake?.stop();
      if (tmp) await rm(tmp, { recursive: true, force: true });
    }
  });

  for (const [size, options] of [['desktop', desktop], ['phone', { ...phone, colorScheme: 'dark' }]]) {
    test(`the agent asks, the person answers in the form, the turn goes on (${size})`, async () => {
      const cwd = await mkdtemp(path.join(tmp, 'work-'));
      const s = await api(server, 'POST', '/api/sessions', { cwd, agent: 'sdk', title: `ask ${size}` });
      const wid = s.workers.find((w) => w.kind === 'sdk').id;
      const page = await newPage(browser, options);
      await signIn(page, server, `/s/${s.id}/w/${wid}`);
      const pane = page.locator('.pane-chat:not([hidden])');
      await pane.locator('.chat-input').waitFor({ timeout: waitMs });
      // The tab serves the built-in tools of the session it shows.
      for (let i = 0; ; i++) {
        const tools = (await api(server, 'GET', `/api/sessions/${s.id}/tools`)).tools;
        if (tools.some((t) => t.name === 'ask_user' && t.provider === 'agentdesk')) break;
        assert.ok(i < 300, 'the tab never registered ask_user');
        await new Promise((r) => setTimeout(r, 100));
      }
      const ask = { question: 'Which colour?', choices: ['red', 'green'], allowText: true };
      await pane.locator('.chat-input').fill(`call mcp__agentdesk__ask_user ${JSON.stringify(ask)}`);
      await pane.locator('.chat-send').click(); // a phone's Enter adds a line

      const perm = pane.locator('.chat-perm:not(.tool-ask)');
      await perm.waitFor({ timeout: waitMs });
      assert.match(await perm.textContent(), /Provided by agentdesk/);
      await perm.getByRole('button', { name: 'Allow', exact: true }).click();

      const form = page.locator('.tool-ask');
      await form.waitFor({ timeout: waitMs });
      assert.match(await form.textContent(), /Which colour\?/);
      await form.getByRole('radio', { name: 'green' }).check();
      await form.getByRole('textbox', { name: 'Your answer' }).fill('a dark one');
      await form.scrollIntoViewIfNeeded();
      assert.deepEqual(await overflow(page), []);
      if (shots !== '') await page.screenshot({ path: path.join(shots, `ask-user-${size}.png`) });
      await form.getByRole('button', { name: 'Send' }).click();
      await form.waitFor({ state: 'detached', timeout: waitMs });

      await pane.locator('.chat-result').first().waitFor({ timeout: waitMs });
      if (shots !== '') await page.screenshot({ path: path.join(shots, `ask-user-${size}-done.png`) });
      const text = await pane.innerText();
      assert.equal(await pane.locator('.chat-result[data-outcome="error"]').count(), 0, `the turn failed:\n${text}`);
      // The model got the person's answer as the tool's result (the fake
      // model sums up the results it got).
      assert.match(text, /Tool finished/, text);
      assert.match(text, /"choice":\s*"green"/, text);
      assert.match(text, /a dark one/, text);
      await page.close();
    });
  }
});
