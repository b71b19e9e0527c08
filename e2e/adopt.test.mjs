// Browser end-to-end for carrying on a conversation started outside
// agentdesk: the real CLI runs `claude -p` in the server's config, then a
// person opens "Open existing…" from the new-session form, picks the
// project, finds the conversation by its first prompt, opens it, sees the
// earlier turn and sends a message that the resumed conversation answers.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { access, chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { launchBrowser, newPage } from './browser.mjs';
import { claudeBin, claudeServerOptions, startFakeApi } from './fakeapi.mjs';
import { AgentdeskServer } from './server.mjs';
import { api as rest, overflow, signIn, smallTargets } from './ux.mjs';

const waitMs = 30_000;

describe('opening an existing Claude Code conversation', { timeout: 300_000 }, () => {
  let tmp;
  let api;
  let server;
  let browser;
  let work;
  const conv = randomUUID();
  const liveConv = randomUUID();
  let env;

  before(async () => {
    await access(claudeBin);
    tmp = await mkdtemp(path.join(os.tmpdir(), 'agentdesk-adopt-e2e-'));
    api = await startFakeApi(tmp);
    const opts = claudeServerOptions(api.url);
    server = await AgentdeskServer.start(opts);
    work = path.join(tmp, 'terminal-project');
    await mkdir(work);
    // The conversation a person had in a terminal, in the same config.
    env = { PATH: process.env.PATH, HOME: server.home, ...opts.env(server.home) };
    await promisify(execFile)(claudeBin, ['-p', 'remember the word heron', '--session-id', conv], { cwd: work, env, timeout: 120_000 });
    await promisify(execFile)(claudeBin, ['-p', 'a conversation still open in a terminal', '--session-id', liveConv], { cwd: work, env, timeout: 120_000 });
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    try {
      await server?.dispose();
    } finally {
      await api?.stop();
      if (tmp) await rm(tmp, { recursive: true, force: true });
    }
  });

  for (const size of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    test(`open existing, filter, adopt and continue (${size.width}px)`, async () => {
      const page = await newPage(browser, { viewport: size });
      await signIn(page, server);
      if (size.width < 600) await page.getByRole('button', { name: /menu|sessions/i }).first().click();
      await page.locator('.new-session-btn').click();
      await page.getByRole('button', { name: 'Open existing…' }).click();
      const dialog = page.locator('dialog.open-existing');
      await dialog.locator('.oe-item', { hasText: 'terminal-project' }).click({ timeout: waitMs });
      const filter = dialog.locator('.oe-filter');
      await filter.fill('no such words');
      await dialog.locator('.oe-status', { hasText: 'No conversation matches.' }).waitFor({ timeout: waitMs });
      await filter.fill('HERON');
      const row = dialog.locator('.oe-item', { hasText: 'remember the word heron' });
      await row.waitFor({ timeout: waitMs });
      assert.deepEqual(await overflow(page), [], 'nothing sticks out of the dialog');
      assert.deepEqual((await smallTargets(page, 40)).filter((s) => s.includes('oe-')), [], 'the rows are big enough to tap');
      await page.screenshot({ path: path.join(tmp, `adopt-${size.width}.png`) });
      if (process.env.SHOTS_DIR) await page.screenshot({ path: path.join(process.env.SHOTS_DIR, `adopt-${size.width}.png`) });
      if (size.width < 600) assert.match(await row.innerText(), /open here/);
      await row.click();
      await dialog.waitFor({ state: 'detached', timeout: waitMs });

      const chat = page.locator('.pane-chat:not([hidden])');
      await chat.locator('.chat-text', { hasText: 'remember the word heron' }).first().waitFor({ timeout: waitMs });
      if (size.width === 1280) {
        const input = chat.locator('.chat-input');
        await input.fill('which word was it?');
        await input.press('Enter');
        const echo = chat.locator('.chat-text', { hasText: /Echo: which word was it\? \(request had (\d+) messages\)/ });
        await echo.waitFor({ timeout: waitMs });
        const n = Number(/had (\d+) messages/.exec(await echo.innerText())[1]);
        assert.ok(n >= 3, `the resumed request carries the earlier turn (${n} messages)`);
        // The whole conversation downloads as a markdown transcript.
        await chat.getByRole('button', { name: 'Export' }).click();
        const [download] = await Promise.all([
          page.waitForEvent('download', { timeout: waitMs }),
          page.getByRole('menuitem', { name: 'Transcript (Markdown)' }).click(),
        ]);
        const md = await readFile(await download.path(), 'utf8');
        assert.match(md, /^# terminal-project/);
        assert.match(md, /## User\n\nremember the word heron/);
        assert.match(md, /## User\n\nwhich word was it\?/);
      } else {
        // The second time the conversation is open here already: the row leads to that session.
        assert.equal((await rest(server, 'GET', '/api/sessions')).length, 1, 'no second session adopts it');
      }
      await page.close();
    });
  }

  test('a conversation another claude still writes opens read-only, and is taken over when it stops', async () => {
    // A process named claude that holds the conversation, as a terminal's would.
    const fake = path.join(tmp, 'bin', 'claude');
    await mkdir(path.dirname(fake), { recursive: true });
    await writeFile(fake, '#!/bin/sh\nread x\n');
    await chmod(fake, 0o755);
    const other = spawn(fake, ['--resume', liveConv], { cwd: work, stdio: ['pipe', 'ignore', 'ignore'] });
    const otherEnded = new Promise((resolve) => other.once('exit', resolve));
    try {
      const page = await newPage(browser, { viewport: { width: 1280, height: 800 } });
      await signIn(page, server);
      await page.locator('.new-session-btn').click();
      await page.getByRole('button', { name: 'Open existing…' }).click();
      const dialog = page.locator('dialog.open-existing');
      await dialog.locator('.oe-item', { hasText: 'terminal-project' }).click({ timeout: waitMs });
      const row = dialog.locator('.oe-item', { hasText: 'still open in a terminal' });
      await row.locator('.oe-live').waitFor({ timeout: waitMs });
      await row.click();
      const chat = page.locator('.pane-chat:not([hidden])');
      await chat.locator('.chat-watch').first().waitFor({ timeout: waitMs });
      assert.ok(await chat.locator('.chat-input').isDisabled(), 'the composer is read-only while the other process writes');
      if (process.env.SHOTS_DIR) await page.screenshot({ path: path.join(process.env.SHOTS_DIR, 'adopt-watching-1280.png') });
      other.stdin.end();
      await otherEnded;
      await chat.locator('.chat-watch', { hasText: 'continues here' }).waitFor({ timeout: waitMs });
      await page.waitForFunction(() => document.querySelector('.pane-chat:not([hidden]) .chat-input')?.disabled === false, null, { timeout: waitMs });
      await page.close();
    } finally {
      other.stdin.end();
    }
  });
});

