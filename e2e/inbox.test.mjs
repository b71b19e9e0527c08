// Browser tests of the "needs you" inbox (issue 16): a permission request of
// a session the page does not show appears in the inbox (sidebar badge, the
// count in the title, the phone's menu button), is answered in place with
// Allow, becomes "finished", and clicking that entry opens the session,
// which clears it. Screenshots at both sizes in light and dark go to
// $SHOTS_DIR when set.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { desktop, launchBrowser, newPage, phone } from './browser.mjs';
import { api, overflow, signIn, smallTargets, startWithFakeClaude } from './ux.mjs';

const shots = process.env.SHOTS_DIR;

/** A turn that asks to run a tool and waits for the answer. */
function askingTurn() {
  const sid = '{{SESSION_ID}}';
  return [
    { type: 'system', subtype: 'init', cwd: '{{CWD}}', session_id: sid, tools: ['Bash'], model: 'claude-fake', permissionMode: 'default', uuid: '{{UUID}}' },
    { type: 'control_request', request_id: 'perm-{{UUID}}', request: { subtype: 'can_use_tool', tool_name: 'Bash', input: { command: 'npm test', description: 'Run the tests' }, tool_use_id: 'toolu_p1' } },
    { type: 'assistant', message: { id: 'msg_p', type: 'message', role: 'assistant', model: 'claude-fake', content: [{ type: 'text', text: 'Tests pass.' }], stop_reason: null, usage: { input_tokens: 1, output_tokens: 1 } }, parent_tool_use_id: null, session_id: sid, uuid: '{{UUID}}' },
    { type: 'result', subtype: 'success', is_error: false, duration_ms: 10, num_turns: 1, result: 'Tests pass.', session_id: sid, total_cost_usd: 0.001, usage: { input_tokens: 1, output_tokens: 1 }, uuid: '{{UUID}}' },
  ];
}

describe('needs-you inbox', { timeout: 400_000 }, () => {
  let tmp;
  let server;
  let browser;

  before(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'agentdesk-inbox-'));
    server = await startWithFakeClaude(tmp, askingTurn());
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
    test(`${size}: a permission waits in the inbox, is allowed in place, and the finished turn clears when opened`, async () => {
      const here = await api(server, 'POST', '/api/sessions', { cwd: await server.tempDir(), title: `here ${size}` });
      const away = await api(server, 'POST', '/api/sessions', { cwd: await server.tempDir(), title: `deploy ${size}` });
      const wid = away.workers.find((w) => w.kind === 'sdk').id;
      const page = await newPage(browser, opts);
      await signIn(page, server, `/s/${here.id}`);
      await page.locator('.conn[data-state="open"]').waitFor();

      await api(server, 'POST', `/api/sessions/${away.id}/workers/${wid}/input`, { content: 'run the tests' });
      const mine = (kind) => page.locator(`.inbox-item[data-sid="${away.id}"][data-kind="${kind}"]`);
      await page.waitForFunction(() => /^\(\d+\) /.test(document.title));
      if (size === 'phone') {
        assert.ok(Number(await page.locator('.menu-btn').getAttribute('data-badge')) >= 1, 'the menu button shows the count');
        await page.locator('.menu-btn').click();
      }
      const button = page.locator('.inbox-btn');
      assert.ok(Number(await button.getAttribute('data-count')) >= 1);
      await button.click();
      const perm = mine('permission');
      await perm.waitFor();
      assert.match(await perm.locator('.inbox-title').textContent(), /Bash: npm test/);
      assert.match(await perm.locator('.inbox-session').textContent(), new RegExp(`deploy ${size}`));
      assert.match(await perm.locator('.inbox-time').textContent(), /just now|min/);
      assert.deepEqual(await overflow(page), []);
      assert.deepEqual(await smallTargets(page, size === 'phone' ? 40 : 0), []);
      await shoot(page, `inbox-${size}`);

      await perm.getByRole('button', { name: 'Allow', exact: true }).click();
      await mine('finished').waitFor();
      assert.equal(await perm.count(), 0);
      const w = await api(server, 'GET', `/api/sessions/${away.id}/workers/${wid}`);
      assert.equal(w.activity, 'idle');
      await shoot(page, `inbox-finished-${size}`);

      await mine('finished').locator('.inbox-open').click();
      await page.waitForURL(`**/s/${away.id}/w/${wid}`);
      assert.ok(await page.locator('.inbox').isHidden(), 'the panel closes');
      await page.waitForFunction(() => !/^\(\d+\) /.test(document.title));
      const left = await api(server, 'GET', '/api/attention');
      assert.equal(left.items.filter((i) => i.sessionId === away.id).length, 0, 'opening the session marked it seen');
      assert.ok(await page.locator('.inbox-badge').isHidden());
      await page.context().close();
    });
  }
});
