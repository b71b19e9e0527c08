// Browser end-to-end for usage and rate limits, with the real CLI logged in
// with a fake subscription token (CLAUDE_CODE_OAUTH_TOKEN) against the fake
// Messages API, which answers such requests with the unified limiter's
// headers. Checks: the chat bar's session totals; the header meter and the
// chat's notice at the CLI's warning ("nearlimit", 92% of the 5-hour
// window) and at a refusal ("overlimit"), each state equal to the recorded
// rate_limit_event fixture (internal/usage/testdata); "Continue at …"
// queueing the continue message for the reset time in the durable queue;
// "Continue in the terminal view" sending the switch; the
// usage page's totals, per-day chart and tables against the REST roll-up;
// and the recorded fixture alone rendered into the meter on a phone.
import assert from 'node:assert/strict';
import { access, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { desktop, launchBrowser, newPage, phone } from './browser.mjs';
import { claudeBin, claudeServerOptions, startFakeApi } from './fakeapi.mjs';
import { AgentdeskServer } from './server.mjs';

const waitMs = 30_000;
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const shots = process.env.USAGE_SHOTS ?? path.join(os.tmpdir(), 'usage-shots');
/** The fake API's reset time (fakeapi.RateLimitReset). */
const resetIso = '2030-01-02T15:00:00.000Z';

/** The rate_limit_info of the recorded rate_limit_event line in a testdata file. */
async function fixtureInfo(name) {
  const text = await readFile(path.join(repoRoot, 'internal/usage/testdata', name), 'utf8');
  const line = text.split('\n').find((l) => l.includes('"rate_limit_event"'));
  return JSON.parse(line).rate_limit_info;
}

describe('usage and rate limits with the real Claude CLI', { timeout: 300_000 }, () => {
  let tmp;
  let api;
  let server;
  let browser;
  let page;
  let sid;
  let wid;

  before(async () => {
    await access(claudeBin);
    await mkdir(shots, { recursive: true });
    tmp = await mkdtemp(path.join(os.tmpdir(), 'agentdesk-usage-e2e-'));
    api = await startFakeApi(tmp);
    const base = claudeServerOptions(api.url);
    server = await AgentdeskServer.start({
      ...base,
      env: (home) => ({ ...base.env(home), ANTHROPIC_API_KEY: undefined, CLAUDE_CODE_OAUTH_TOKEN: 'sk-ant-oat01-fake' }),
    });
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    try {
      if (process.env.USAGE_E2E_LOG) console.log(`${server?.output ?? ''}\n${api?.log() ?? ''}`);
      await server?.dispose();
    } finally {
      await api?.stop();
      if (tmp) await rm(tmp, { recursive: true, force: true });
    }
  });

  const chat = () => page.locator('.pane-chat:not([hidden])');
  const getJSON = async (p) => (await page.request.get(`${server.url}${p}`)).json();

  async function send(text, results) {
    const input = chat().locator('.chat-input');
    await page.waitForFunction(() => {
      const el = document.querySelector('.pane-chat:not([hidden]) .chat-input');
      return el !== null && !el.disabled;
    }, null, { timeout: waitMs });
    await input.fill(text);
    await input.press('Enter');
    try {
      await page.waitForFunction((n) => document.querySelectorAll('.pane-chat:not([hidden]) .chat-result').length >= n, results, { timeout: waitMs });
    } catch (err) {
      throw new Error(`no result for ${text}: ${err.message}\npage:\n${await chat().innerText()}\nserver:\n${server.output}\nfake API:\n${api.log().slice(-4000)}`);
    }
  }

  /** The stored state must be the recorded event's info, field for field. */
  async function expectFixtureState(file) {
    const want = await fixtureInfo(file);
    await page.waitForFunction((status) => document.querySelector('.rate-meter')?.dataset.level === status,
      want.status === 'rejected' ? 'rejected' : 'warn', { timeout: waitMs });
    const { rateLimit } = await getJSON('/api/rate-limits');
    assert.deepEqual(rateLimit.info, want, 'the stored state is what the CLI recorded');
    assert.equal(rateLimit.sessionId, sid);
  }

  test('a turn shows the session totals in the chat bar', async () => {
    page = await newPage(browser, { ...desktop, colorScheme: 'light' });
    await page.goto(`${server.url}/?token=${server.token}`);
    await page.locator('.conn[data-state="open"]').waitFor({ timeout: waitMs });
    const cwd = await mkdtemp(path.join(tmp, 'work-'));
    await page.keyboard.press('Alt+N');
    await page.locator('#ns-cwd').fill(cwd);
    await page.locator('#ns-title').fill('metered');
    await page.locator('#ns-agent').selectOption('sdk');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/\/s\/[^/]+/, { timeout: waitMs });
    await chat().locator('.chat-conn[data-state="open"]').waitFor({ timeout: waitMs });
    wid = await chat().getAttribute('data-worker-id');
    sid = decodeURIComponent(/\/s\/([^/]+)/.exec(page.url())[1]);

    await send('hello', 1);
    const total = chat().locator('.chat-usage');
    await page.waitForFunction(() => /· 1 turn$/.test(document.querySelector('.pane-chat:not([hidden]) .chat-usage')?.textContent ?? ''), null, { timeout: waitMs });
    const rep = await getJSON(`/api/usage?groupBy=session&sessionId=${sid}`);
    assert.equal(rep.total.turns, 1);
    assert.ok(rep.total.costUsd > 0 && rep.total.inputTokens > 0, JSON.stringify(rep));
    assert.match(await total.innerText(), new RegExp(`^\\$${rep.total.costUsd.toFixed(4)} · 1 turn$`));
  });

  test('the CLI\'s warning fills the meter and offers the terminal view', async () => {
    await send('nearlimit please', 2);
    await expectFixtureState('ratelimit_nearlimit.jsonl');
    const meter = page.locator('.rate-meter');
    assert.match(await meter.innerText(), /^92% · resets /);
    const notice = chat().locator('.limit-notice');
    await notice.waitFor({ timeout: waitMs });
    assert.match(await notice.innerText(), /92% of the 5-hour limit is used; it resets at/);
    assert.equal(await notice.getByRole('button', { name: /Continue at/ }).isVisible(), false, 'no queue before a refusal');

    // The switch button sends the existing switch request.
    let switchBody = null;
    await page.route('**/api/sessions/*/switch', async (route) => {
      switchBody = route.request().postDataJSON();
      await route.fulfill({ status: 409, contentType: 'application/json', body: JSON.stringify({ error: 'a turn is running', code: 'agent_busy' }) });
    });
    await notice.getByRole('button', { name: 'Continue in the terminal view' }).click();
    await notice.locator('.limit-result', { hasText: 'Could not switch: a turn is running' }).waitFor({ timeout: waitMs });
    assert.deepEqual(switchBody, { to: 'pty-agent' });
    await page.unroute('**/api/sessions/*/switch');
  });

  test('a refusal turns the meter red and queues "continue" for the reset', async () => {
    await send('overlimit please', 3);
    await expectFixtureState('ratelimit_overlimit.jsonl');
    assert.match(await page.locator('.rate-meter').innerText(), /^Limit reached · resets /);
    const notice = chat().locator('.limit-notice[data-level="rejected"]');
    await notice.waitFor({ timeout: waitMs });
    assert.match(await notice.innerText(), /The 5-hour usage limit is reached\. It resets at/);
    for (const scheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: path.join(shots, `desktop-${scheme}-chat-limit.png`) });
    }

    // The continue message waits in the durable queue until the reset.
    const queue = notice.getByRole('button', { name: /^Continue at / });
    await queue.click();
    await notice.locator('.limit-result', { hasText: 'Queued: “Continue where you left off.” will be sent at' }).waitFor({ timeout: waitMs });
    const queued = await getJSON(`/api/sessions/${sid}/workers/${wid}/queue`);
    assert.equal(queued.items.length, 1, 'one queued item');
    assert.equal(queued.items[0].content, 'Continue where you left off.');
    assert.equal(new Date(queued.items[0].notBefore).toISOString(), resetIso, 'delivered at the reset');
    await chat().locator('.chat-queue', { hasText: 'Continue where you left off.' }).waitFor({ timeout: waitMs });
    // Taken out again, so the later checks count only the three turns.
    const del = await fetch(`${server.url}/api/sessions/${sid}/workers/${wid}/queue/${queued.items[0].id}`, {
      method: 'DELETE', headers: { Authorization: `Bearer ${server.token}` },
    });
    assert.equal(del.status, 204);
  });

  test('the usage page draws the roll-up', async () => {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.locator('.usage-link').click();
    await page.waitForURL(/\/usage$/, { timeout: waitMs });
    const usage = page.locator('.usage-page');
    await usage.locator('.usage-chart').waitFor({ timeout: waitMs });
    const rep = await getJSON('/api/usage?groupBy=session');
    assert.equal(rep.total.turns, 3, 'hello, nearlimit and the refused turn');
    const stat = async (label) => usage.locator('.usage-stat', { hasText: label }).locator('dd').innerText();
    assert.equal(await stat('Turns'), '3');
    assert.equal(await stat('Cost'), `$${rep.total.costUsd.toFixed(4)}`);
    const today = new Date().toISOString().slice(0, 10);
    const bar = usage.locator(`.usage-bar[data-day="${today}"]`);
    assert.ok(Number(await bar.getAttribute('height')) > 0, 'today has a bar');
    assert.equal(await usage.locator('.usage-bar').count(), 30, 'one bar per day of the range');
    const row = usage.locator('.usage-table').first().locator('tbody tr');
    assert.equal(await row.count(), 1);
    assert.match(await row.innerText(), /metered\s+\$\d\.\d{4}\s+3\s/);
    assert.match(await usage.locator('.usage-limit').innerText(), /5-hour limit is reached/);
    await usage.getByRole('button', { name: '7 days' }).click();
    await page.waitForFunction(() => document.querySelectorAll('.usage-bar').length === 7, null, { timeout: waitMs });
    for (const scheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: path.join(shots, `desktop-${scheme}-usage.png`) });
    }
    assert.deepEqual(page.errors.filter((e) => !/status of (404|409)/.test(e)), [], "only the expected 404 and 409");
  });

  test('the recorded rate_limit_event renders into the meter on a phone', async () => {
    const info = await fixtureInfo('ratelimit_nearlimit.jsonl');
    for (const scheme of ['light', 'dark']) {
      const p = await newPage(browser, { ...phone, colorScheme: scheme });
      // The state as the server serves it, built from the recording alone.
      await p.route('**/api/rate-limits', (route) => route.fulfill({
        status: 200, contentType: 'application/json',
        body: JSON.stringify({ rateLimit: { ...info, info, updatedAt: new Date().toISOString(), sessionId: sid, workerId: wid } }),
      }));
      await p.goto(`${server.url}/s/${sid}/w/${wid}?token=${server.token}`);
      const meter = p.locator('.rate-meter[data-level="warn"]');
      await meter.waitFor({ timeout: waitMs });
      assert.match(await meter.getAttribute('aria-label'), /^92% of the 5-hour limit used; it resets at /);
      const fill = await meter.locator('.rate-meter-fill').evaluate((el) => el.style.width);
      assert.equal(fill, '92%');
      const box = await meter.boundingBox();
      assert.ok(box.height >= 40, `meter is ${box.height}px tall`);
      assert.equal(await meter.innerText(), '92%', 'the phone meter shows the percentage only');
      const cut = await p.evaluate(() => [...document.querySelectorAll('.topbar > *')]
        .filter((el) => el.getBoundingClientRect().width > 0 && el.getBoundingClientRect().right > window.innerWidth)
        .map((el) => el.className));
      assert.deepEqual(cut, [], 'every header item fits the phone screen');
      const overflow = await p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `page overflows by ${overflow}px`);
      await p.locator('.pane-chat:not([hidden]) .limit-notice').waitFor({ timeout: waitMs });
      await p.screenshot({ path: path.join(shots, `phone-${scheme}-chat-meter.png`) });
      await p.goto(`${server.url}/usage`);
      await p.locator('.usage-chart').waitFor({ timeout: waitMs });
      assert.equal(await p.locator('.notice:not([hidden])').count(), 0, 'the start page is not shown under the usage page');
      const over2 = await p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(over2 <= 0, `usage page overflows by ${over2}px`);
      await p.screenshot({ path: path.join(shots, `phone-${scheme}-usage.png`) });
      await p.context().close();
    }
  });
});
