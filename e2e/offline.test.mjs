// The browser tests send nothing off the machine (issue 22, item 25): the
// Chromium of launchBrowser reaches the app on 127.0.0.1 directly, and a
// request from a page to any other host, http or https, ends at the
// harness's refusing proxy (counted there) and fails.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { launchBrowser, newPage } from './browser.mjs';
import { AgentdeskServer } from './server.mjs';
import { signIn } from './ux.mjs';

describe('nothing leaves the machine', { timeout: 120_000 }, () => {
  let server;
  let browser;

  before(async () => {
    server = await AgentdeskServer.start();
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await server?.dispose();
  });

  test('the app on 127.0.0.1 loads directly; other hosts reach the refusing proxy and fail', async (t) => {
    assert.ok(Array.isArray(browser.refused), 'the browser runs behind the refusing proxy');
    const page = await newPage(browser);
    await signIn(page, server);
    assert.deepEqual(browser.refused.filter((r) => r.target.includes('127.0.0.1')), [], 'loopback goes direct');

    const blank = await newPage(browser);
    await blank.goto('about:blank');
    const probe = (url) => blank.evaluate((u) => fetch(u, { cache: 'no-store' }).then((r) => `answered ${r.status}`, (e) => `failed: ${e.message}`), url);
    assert.match(await probe('http://example.com/agentdesk-e2e-probe'), /^failed/);
    assert.match(await probe('https://example.org/agentdesk-e2e-probe'), /^failed/);
    const nav = await blank.goto('http://example.net/agentdesk-e2e-page');
    assert.equal(nav?.status(), 403, 'a navigation gets the proxy’s refusal');

    const seen = browser.refused.map((r) => `${r.method} ${r.target}`);
    for (const want of ['GET http://example.com/agentdesk-e2e-probe', 'CONNECT example.org:443', 'GET http://example.net/agentdesk-e2e-page']) {
      assert.ok(seen.includes(want), `the proxy did not see ${want}; it saw:\n${seen.join('\n')}`);
    }
    t.diagnostic(`requests refused by the proxy in this test: ${seen.length} (${seen.length - 3} of Chromium's own)`);
    if (process.env.SHOW_REFUSED) for (const r of seen) t.diagnostic(r);
    await page.context().close();
    await blank.context().close();
  });
});
