// Browser tests of the installable app: the page links a web manifest with
// icons that load, the service worker registers for the whole origin over
// plain http on loopback, caches the app shell only (never an /api or /ws
// answer), and the installed shell still opens with the server unreachable.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { desktop, launchBrowser, newPage, phone } from './browser.mjs';
import { AgentdeskServer } from './server.mjs';
import { api, signIn } from './ux.mjs';

/** Waits until the page's service worker is activated (the shell is then cached). */
function activated(page) {
  return page.evaluate(async () => {
    const reg = await navigator.serviceWorker.ready;
    const w = reg.active;
    if (w.state !== 'activated') await new Promise((r) => w.addEventListener('statechange', () => w.state === 'activated' && r()));
    return { scope: reg.scope, script: w.scriptURL };
  });
}

describe('PWA: manifest and service worker', { timeout: 180_000 }, () => {
  let server;
  let browser;

  before(async () => {
    server = await AgentdeskServer.start();
    browser = await launchBrowser();
    await api(server, 'POST', '/api/sessions', { cwd: await server.tempDir(), agent: 'none', title: 'pwa' });
  });

  after(async () => {
    await browser?.close();
    await server?.dispose();
  });

  test('the manifest is linked, valid, and its icons load', async () => {
    const page = await newPage(browser, phone);
    await signIn(page, server);
    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    const res = await page.request.get(new URL(href, server.url).href);
    assert.equal(res.status(), 200);
    assert.match(res.headers()['content-type'], /application\/manifest\+json/);
    const m = await res.json();
    assert.equal(m.name, 'agentdesk');
    assert.equal(m.start_url, '/');
    assert.equal(m.display, 'standalone');
    const sizes = new Set(m.icons.map((i) => i.sizes));
    assert.ok(sizes.has('192x192') && sizes.has('512x512'), 'the 192 and 512 px icons installers need');
    assert.ok(m.icons.some((i) => i.purpose === 'maskable'), 'a maskable icon');
    for (const icon of m.icons) {
      const r = await page.request.get(new URL(icon.src, server.url).href);
      assert.equal(r.status(), 200, icon.src);
      assert.equal(r.headers()['content-type'].split(';')[0], icon.type, icon.src);
    }
    assert.equal(await page.locator('meta[name="theme-color"]').count(), 1);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('the service worker registers for the whole app and caches the shell only', async () => {
    const page = await newPage(browser, desktop);
    await signIn(page, server);
    const reg = await activated(page);
    assert.equal(reg.scope, `${server.url}/`);
    assert.equal(reg.script, `${server.url}/sw.js`);
    // Use the app, REST and sockets included, under the worker's control.
    await page.reload();
    assert.equal(await page.evaluate(() => navigator.serviceWorker.controller !== null), true, 'the page is controlled');
    await page.locator('.conn[data-state="open"]').waitFor();
    await page.locator('.session-title', { hasText: 'pwa' }).click();
    await page.locator('.session-heading', { hasText: 'pwa' }).waitFor();
    const cached = await page.evaluate(async () => {
      const out = [];
      for (const name of await caches.keys()) {
        for (const req of await (await caches.open(name)).keys()) out.push(new URL(req.url).pathname);
      }
      return out;
    });
    assert.ok(cached.includes('/'), `the page is cached: ${cached}`);
    assert.ok(cached.some((p) => /^\/assets\/.*\.js$/.test(p)), 'the script is cached');
    assert.ok(cached.some((p) => /^\/assets\/.*\.css$/.test(p)), 'the styles are cached');
    assert.ok(cached.includes('/manifest.webmanifest'));
    assert.deepEqual(cached.filter((p) => p.startsWith('/api') || p.startsWith('/ws')), [], 'no API or socket answer is cached');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('with the server unreachable the installed shell still opens and says so', async () => {
    const page = await newPage(browser, desktop);
    await signIn(page, server);
    await activated(page);
    await page.context().setOffline(true);
    await page.reload();
    // The shell came from the cache; the sessions could not: a message and Retry.
    await page.getByRole('button', { name: 'Retry' }).waitFor();
    assert.match(await page.locator('.form-error').innerText(), /Cannot reach the server/);
    await page.context().setOffline(false);
    await page.getByRole('button', { name: 'Retry' }).click();
    await page.locator('.session-title', { hasText: 'pwa' }).waitFor();
    await page.context().close();
  });
});
