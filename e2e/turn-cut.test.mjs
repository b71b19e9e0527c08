// Browser test of a turn cut short by a crash (issue 22, item 6): the fake
// CLI starts its turn and then hangs (FAKECLAUDE_HANG); agentdesk is
// SIGKILLed mid-turn and started again on the same data dir. The chat ends
// the turn with "Cut short by a restart" (a stored note, as a Cancel's turn
// ends with "Interrupted") instead of showing nothing; the worker is idle.
// Screenshots at both sizes in light and dark go to $SHOTS_DIR when set.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import { desktop, launchBrowser, newPage, phone } from './browser.mjs';
import { AgentdeskServer } from './server.mjs';
import { api, fakeClaude, overflow, signIn } from './ux.mjs';

const chat = '.pane-chat:not([hidden])';
const shots = process.env.SHOTS_DIR;

describe('a turn cut short by a crash', { timeout: 300_000 }, () => {
  let tmp;
  let server;
  let browser;
  let sid;
  let wid;

  before(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'agentdesk-cut-'));
    server = await AgentdeskServer.start({ args: ['--claude', await fakeClaude(tmp)], env: { FAKECLAUDE_HANG: '1' } });
    browser = await launchBrowser();
    if (shots) await mkdir(shots, { recursive: true });

    const s = await api(server, 'POST', '/api/sessions', { cwd: await server.tempDir(), title: 'cut turn' });
    sid = s.id;
    wid = s.workers.find((w) => w.kind === 'sdk').id;
    await api(server, 'POST', `/api/sessions/${sid}/workers/${wid}/input`, { content: 'write a long answer' });
    // The turn has begun: the fake CLI printed its start and hangs.
    for (let i = 0; ; i++) {
      const page = await api(server, 'GET', `/api/sessions/${sid}/workers/${wid}/messages`);
      if (page.messages.some((m) => m.message.type === 'assistant')) break;
      if (i > 600) throw new Error('the turn never started');
      await sleep(50); // polls the log; the bound is only a guard
    }
    // SIGKILL: no shutdown code runs.
    server.child.kill('SIGKILL');
    await server.exited;
    server.child = null;
    await server.start();
  });

  after(async () => {
    await browser?.close();
    await server?.dispose();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  for (const [size, opts] of [['phone', phone], ['desktop', desktop]]) {
    test(`${size}: the cut turn ends with a note`, async () => {
      const page = await newPage(browser, opts);
      await signIn(page, server, `/s/${sid}/w/${wid}`);
      const cut = page.locator(`${chat} .chat-turn-cut`);
      await cut.waitFor();
      assert.match(await cut.innerText(), /Cut short by a restart/);
      assert.match(await cut.innerText(), /what Claude was still writing is lost/);
      assert.equal(await cut.getAttribute('data-outcome'), 'cut');
      await page.locator(`${chat} .chat-activity[data-activity="idle"]`).waitFor();
      const w = await api(server, 'GET', `/api/sessions/${sid}/workers/${wid}`);
      assert.equal(w.activity, 'idle');
      assert.deepEqual(await overflow(page), []);
      if (shots) {
        for (const scheme of ['light', 'dark']) {
          await page.emulateMedia({ colorScheme: scheme });
          await page.screenshot({ path: path.join(shots, `turn-cut-${size}-${scheme}.png`) });
        }
      }
      assert.deepEqual(page.errors, []);
      await page.context().close();
    });
  }
});
