// Browser test of a plan in the "needs you" inbox (issue 22, item 14), at
// phone and desktop size: the inbox shows the plan and the chat card's
// three choices (not "Claude wants to use ExitPlanMode" with Allow/Deny);
// "Approve and auto-accept edits" answers over REST with the mode, and
// "Keep planning" sends the feedback.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { desktop, launchBrowser, newPage, phone } from './browser.mjs';
import { api, overflow, signIn, startWithFakeClaude } from './ux.mjs';

/** A turn in plan mode that proposes a plan and waits for the answer. */
function planTurn() {
  const sid = '{{SESSION_ID}}';
  const plan = '## Plan\n\n1. Add the **login** check\n2. Run the tests';
  return [
    { type: 'system', subtype: 'init', cwd: '{{CWD}}', session_id: sid, tools: ['ExitPlanMode'], model: 'claude-fake', permissionMode: 'plan', uuid: '{{UUID}}' },
    { type: 'assistant', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-fake', content: [{ type: 'tool_use', id: 'toolu_plan', name: 'ExitPlanMode', input: { plan } }], stop_reason: null, usage: { input_tokens: 1, output_tokens: 1 } }, parent_tool_use_id: null, session_id: sid, uuid: '{{UUID}}' },
    { type: 'control_request', request_id: 'plan-{{UUID}}', request: { subtype: 'can_use_tool', tool_name: 'ExitPlanMode', input: { plan }, tool_use_id: 'toolu_plan' } },
    { type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_plan', content: 'ok' }] }, parent_tool_use_id: null, session_id: sid, uuid: '{{UUID}}' },
    { type: 'result', subtype: 'success', is_error: false, duration_ms: 10, num_turns: 1, result: 'ok', session_id: sid, total_cost_usd: 0.001, usage: { input_tokens: 1, output_tokens: 1 }, uuid: '{{UUID}}' },
  ];
}

describe('a plan in the inbox', { timeout: 300_000 }, () => {
  let tmp;
  let server;
  let browser;

  before(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'agentdesk-inbox-plan-'));
    server = await startWithFakeClaude(tmp, planTurn());
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await server?.dispose();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  for (const [size, opts, choice] of [['phone', phone, 'keep'], ['desktop', desktop, 'auto']]) {
    test(`${size}: the plan shows with its three choices and is answered in place (${choice})`, async () => {
      const here = await api(server, 'POST', '/api/sessions', { cwd: await server.tempDir(), title: `here ${size}`, agent: 'none' });
      const away = await api(server, 'POST', '/api/sessions', { cwd: await server.tempDir(), title: `plan ${size}`, permissionMode: 'plan' });
      const wid = away.workers.find((w) => w.kind === 'sdk').id;
      const page = await newPage(browser, opts);
      await signIn(page, server, `/s/${here.id}`);
      await api(server, 'POST', `/api/sessions/${away.id}/workers/${wid}/input`, { content: 'plan the login check' });
      if (size === 'phone') await page.locator('.menu-btn').click();
      const item = page.locator(`.inbox-item[data-sid="${away.id}"][data-kind="plan"]`);
      await item.waitFor({ state: 'attached' });
      await page.locator('.inbox-btn').click();
      await item.waitFor();
      const card = item.locator('.chat-plan');
      await card.locator('.plan-body strong', { hasText: 'login' }).waitFor(); // the plan, rendered
      assert.doesNotMatch(await item.innerText(), /wants to use|ExitPlanMode/);
      for (const name of ['Approve and auto-accept edits', 'Approve, ask for each edit', 'Keep planning']) {
        assert.equal(await card.getByRole('button', { name, exact: true }).count(), 1, name);
      }
      assert.equal(await item.getByRole('button', { name: 'Allow', exact: true }).count(), 0);
      assert.deepEqual(await overflow(page), []);
      const sent = page.waitForRequest((r) => r.method() === 'POST' && r.url().includes(`/workers/${wid}/permissions/`));
      if (choice === 'auto') {
        await card.getByRole('button', { name: 'Approve and auto-accept edits' }).click();
      } else {
        await card.getByRole('textbox', { name: 'Feedback on the plan' }).fill('Check the logout too');
        await card.getByRole('button', { name: 'Keep planning' }).click();
      }
      await page.locator(`.inbox-item[data-sid="${away.id}"][data-kind="finished"]`).waitFor();
      const w = await api(server, 'GET', `/api/sessions/${away.id}/workers/${wid}`);
      assert.equal(w.permissionMode, choice === 'auto' ? 'acceptEdits' : 'plan', 'the mode the choice says');
      const body = (await sent).postDataJSON();
      assert.deepEqual(body, choice === 'auto'
        ? { behavior: 'allow', updatedPermissions: [{ type: 'setMode', mode: 'acceptEdits', destination: 'session' }] }
        : { behavior: 'deny', message: 'Check the logout too' }, 'the answer the chat\'s card gives');
      assert.deepEqual(page.errors, []);
      await page.context().close();
    });
  }
});
