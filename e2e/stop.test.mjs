// Browser tests of the stall watchdog and the escalating stop (issue 17):
// the fake CLI hangs in its turn (FAKECLAUDE_HANG), ignores the interrupt
// and leaves a setsid tool that ignores SIGTERM. With --stall-after 1s the
// chat shows the stall card ("Interrupt", "Stop the agent") and the
// sidebar marks the session; "Interrupt" shows "Interrupting…" and still
// offers "Stop the agent", which shows "Stopping the agent…" until the
// agent and its tool are gone; then the card goes and the turn is idle.
// Screenshots at both sizes in light and dark go to $SHOTS_DIR when set.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { desktop, launchBrowser, newPage, phone } from './browser.mjs';
import { AgentdeskServer } from './server.mjs';
import { api, fakeClaude, overflow, signIn, smallTargets } from './ux.mjs';

const chat = '.pane-chat:not([hidden])';
const shots = process.env.SHOTS_DIR;

describe('stall card and stop stages', { timeout: 400_000 }, () => {
  let tmp;
  let server;
  let browser;

  before(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'agentdesk-stop-'));
    server = await AgentdeskServer.start({
      args: ['--claude', await fakeClaude(tmp), '--stall-after', '1s'],
      env: { FAKECLAUDE_HANG: '1', FAKECLAUDE_IGNORE_INTERRUPT: '1', FAKECLAUDE_TOOL: 'stubborn' },
    });
    browser = await launchBrowser();
    if (shots) await mkdir(shots, { recursive: true });
  });

  after(async () => {
    await browser?.close();
    await server?.dispose();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  async function shoot(page, name) {
    if (!shots) return;
    for (const scheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: path.join(shots, `${name}-${scheme}.png`) });
    }
    await page.emulateMedia({ colorScheme: 'light' });
  }

  for (const [size, opts] of [['phone', phone], ['desktop', desktop]]) {
    test(`${size}: a stalled turn gets the card, and each stop stage shows`, async () => {
      const s = await api(server, 'POST', '/api/sessions', { cwd: await server.tempDir(), title: `stall ${size}` });
      const wid = s.workers.find((w) => w.kind === 'sdk').id;
      const page = await newPage(browser, opts);
      await signIn(page, server, `/s/${s.id}/w/${wid}`);
      await page.locator(`${chat} .conn, ${chat} .chat-conn`).first().waitFor();
      await page.locator(`${chat} .chat-input`).fill('run the whole test suite');
      await page.locator(`${chat} .chat-send`).click();

      const card = page.locator(`${chat} .chat-stop`);
      await page.locator(`${chat} .chat-stop[data-stage="stalled"]`).waitFor();
      assert.match(await card.textContent(), /No progress for a while/);
      await page.locator(`${chat} .chat-activity[data-activity="stalled"]`).waitFor();
      const interrupt = card.getByRole('button', { name: 'Interrupt' });
      const force = card.getByRole('button', { name: 'Stop the agent' });
      assert.ok(await interrupt.isVisible() && await force.isVisible(), 'the card offers both');
      const api1 = await api(server, 'GET', `/api/sessions/${s.id}/workers/${wid}`);
      assert.equal(api1.activity, 'stalled');
      if (size === 'desktop') await page.locator(`.session-row .dot[data-activity="stalled"]`).first().waitFor();
      assert.deepEqual(await overflow(page), []);
      assert.deepEqual(await smallTargets(page, size === 'phone' ? 44 : 0), []);
      await shoot(page, `stall-${size}`);

      await interrupt.click();
      await page.locator(`${chat} .chat-stop[data-stage="interrupting"]`).waitFor();
      assert.match(await card.textContent(), /Interrupting…/);
      assert.ok(await force.isVisible(), '"Stop the agent" is offered while the interrupt is waited for');
      assert.ok(!(await interrupt.isVisible()), 'no second interrupt');
      await shoot(page, `interrupting-${size}`);

      await force.click();
      await page.locator(`${chat} .chat-stop[data-stage="terminating"]`).waitFor();
      assert.match(await card.textContent(), /Stopping the agent…/);
      assert.deepEqual(await overflow(page), []);
      await shoot(page, `terminating-${size}`);

      // The tool ignores SIGTERM: SIGKILL 5 s later, then the turn ends.
      await card.waitFor({ state: 'hidden' });
      await page.locator(`${chat} .chat-activity[data-activity="idle"]`).waitFor();
      await page.locator(`${chat} .chat-exit`).filter({ hasText: 'SIGTERM' }).waitFor();
      const api2 = await api(server, 'GET', `/api/sessions/${s.id}/workers/${wid}`);
      assert.equal(api2.activity, 'idle');
      assert.deepEqual(page.errors, []);
      await page.context().close();
    });
  }
});
