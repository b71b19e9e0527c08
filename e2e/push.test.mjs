// Browser tests of Web Push (issue 16): the service worker shows a pushed
// notification (delivered through CDP ServiceWorker.deliverPushMessage,
// with the payload the server sends), its Allow button answers the
// permission with the page's sign-in, tapping it opens the session, no push
// goes out for the session a visible tab shows (viewing frames), and
// the "Push notifications" switch in the inbox panel subscribes and
// unsubscribes. Headless Chromium has no push service to subscribe with,
// so the switch test stands in for PushManager.subscribe (see below).
// Browsers offer automation no notification click: the click goes through
// the service worker's test message, which runs the same handler.
// Screenshots of the switch go to $SHOTS_DIR when set.
import assert from 'node:assert/strict';
import { createECDH, createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { desktop, launchBrowser, newPage, phone, waitMs } from './browser.mjs';
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

/** Polls fn (bounded) until it returns a truthy value. */
async function until(fn, what) {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The payload the server pushes for an attention item (server/push.go). */
function payload(sid, wid, kind, extra = {}) {
  return { title: `deploy: ${kind}`, body: 'Bash: npm test', url: `/s/${sid}/w/${wid}`, tag: `agentdesk-${sid}-${wid}`, sessionId: sid, workerId: wid, kind, ...extra };
}

describe('web push', { timeout: 400_000 }, () => {
  let tmp;
  let server;
  let browser;

  before(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'agentdesk-push-'));
    server = await startWithFakeClaude(tmp, askingTurn());
    browser = await launchBrowser();
    if (shots) await mkdir(shots, { recursive: true });
  });

  after(async () => {
    await browser?.close();
    await server?.dispose();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  /** A signed-in page allowed to notify, its service worker ready, and a push function through CDP. */
  async function pushPage(opts) {
    const page = await newPage(browser, opts);
    await page.context().grantPermissions(['notifications'], { origin: server.url });
    const cdp = await page.context().newCDPSession(page);
    const regs = new Map();
    cdp.on('ServiceWorker.workerRegistrationUpdated', (ev) => {
      for (const r of ev.registrations) if (!r.isDeleted) regs.set(r.scopeURL, r.registrationId);
    });
    await cdp.send('ServiceWorker.enable');
    await signIn(page, server);
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    const registrationId = await until(() => regs.get(`${server.url}/`), 'the service worker registration');
    const push = (data) => cdp.send('ServiceWorker.deliverPushMessage', { origin: server.url, registrationId, data: JSON.stringify(data) });
    return { page, push };
  }

  /** The notifications shown with tag, read in the page. */
  function shown(page, tag) {
    return page.evaluate(async (t) => {
      const ns = await (await navigator.serviceWorker.ready).getNotifications({ tag: t });
      return ns.map((n) => ({ title: n.title, body: n.body, tag: n.tag, actions: n.actions.map((a) => a.action), requireInteraction: n.requireInteraction, data: n.data }));
    }, tag);
  }

  /** Taps the notification with tag (action '' for its body), through the service worker. */
  function tap(page, tag, action) {
    return page.evaluate(async ({ t, a }) => {
      (await navigator.serviceWorker.ready).active.postMessage({ type: 'test-notificationclick', tag: t, action: a });
    }, { t: tag, a: action });
  }

  test('a pushed permission shows Allow and Deny, and Allow answers it with the sign-in cookie', async () => {
    const s = await api(server, 'POST', '/api/sessions', { cwd: await server.tempDir(), title: 'deploy' });
    const wid = s.workers.find((w) => w.kind === 'sdk').id;
    await api(server, 'POST', `/api/sessions/${s.id}/workers/${wid}/input`, { content: 'run the tests' });
    const item = await until(async () => (await api(server, 'GET', '/api/attention')).items.find((i) => i.workerId === wid && i.kind === 'permission'), 'the permission');
    const rid = item.request.requestId;

    const { page, push } = await pushPage(desktop);
    const p = payload(s.id, wid, 'permission', { requestId: rid, actions: [{ action: 'allow', title: 'Allow' }, { action: 'deny', title: 'Deny' }] });
    await push(p);
    const [n] = await until(async () => (await shown(page, p.tag)).length === 1 && shown(page, p.tag), 'the notification');
    assert.equal(n.title, 'deploy: permission');
    assert.equal(n.body, 'Bash: npm test');
    assert.deepEqual(n.actions, ['allow', 'deny']);
    assert.equal(n.requireInteraction, true);
    assert.equal(n.data.requestId, rid);

    await tap(page, p.tag, 'allow');
    await until(async () => (await api(server, 'GET', '/api/attention')).items.some((i) => i.workerId === wid && i.kind === 'finished'), 'the answered permission');
    assert.equal((await api(server, 'GET', `/api/sessions/${s.id}/workers/${wid}`)).activity, 'idle');
    assert.deepEqual(await shown(page, p.tag), [], 'the notification is closed');
    assert.equal(new URL(page.url()).pathname, '/', 'answering opened nothing');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('tapping a notification opens its session in the open tab', async () => {
    const s = await api(server, 'POST', '/api/sessions', { cwd: await server.tempDir(), title: 'tapped' });
    const wid = s.workers.find((w) => w.kind === 'sdk').id;
    const { page, push } = await pushPage(phone);
    const p = payload(s.id, wid, 'finished');
    await push(p);
    const [n] = await until(async () => (await shown(page, p.tag)).length === 1 && shown(page, p.tag), 'the notification');
    assert.deepEqual(n.actions, []);
    assert.equal(n.requireInteraction, false);
    await tap(page, p.tag, '');
    await page.waitForURL(`**/s/${s.id}/w/${wid}`);
    await page.locator('.session-heading', { hasText: 'tapped' }).waitFor();
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('no push for the session a visible tab shows; the other session is pushed', async () => {
    // A push service on 127.0.0.1 that records each push's Topic (the server
    // derives it from the worker id).
    const topics = [];
    const svc = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        topics.push(req.headers.topic);
        res.writeHead(201).end();
      });
    });
    await new Promise((r) => svc.listen(0, '127.0.0.1', r));
    const endpoint = `http://127.0.0.1:${svc.address().port}/push/presence`;
    const ecdh = createECDH('prime256v1');
    await api(server, 'POST', '/api/push/subscriptions', { endpoint, keys: { p256dh: ecdh.generateKeys().toString('base64url'), auth: randomBytes(16).toString('base64url') } });
    try {
      const seen = await api(server, 'POST', '/api/sessions', { cwd: await server.tempDir(), title: 'seen' });
      const away = await api(server, 'POST', '/api/sessions', { cwd: await server.tempDir(), title: 'away' });
      const widOf = (s) => s.workers.find((w) => w.kind === 'sdk').id;
      const topic = (wid) => createHash('sha256').update(wid).digest().subarray(0, 24).toString('base64url');
      const page = await newPage(browser, desktop);
      await signIn(page, server, `/s/${seen.id}`);
      await page.locator('.session-heading', { hasText: 'seen' }).waitFor();
      await page.locator('.conn[data-state="open"]').waitFor();
      const waiting = (wid) => until(async () => (await api(server, 'GET', '/api/attention')).items.some((i) => i.workerId === wid && i.kind === 'permission'), 'the permission');
      await api(server, 'POST', `/api/sessions/${seen.id}/workers/${widOf(seen)}/input`, { content: 'run the tests' });
      await waiting(widOf(seen));
      await api(server, 'POST', `/api/sessions/${away.id}/workers/${widOf(away)}/input`, { content: 'run the tests' });
      await waiting(widOf(away));
      // Pushes leave in order: had the viewed session's been pushed, it would come first.
      await until(() => topics.length > 0, 'a push');
      assert.equal(topics[0], topic(widOf(away)), 'the first push is the session no tab shows');
      assert.ok(!topics.includes(topic(widOf(seen))), 'the viewed session was not pushed');
      await page.context().close();
    } finally {
      await api(server, 'DELETE', '/api/push/subscriptions', { endpoint });
      svc.close();
    }
  });

  /**
   * Headless Chromium has no push service: PushManager.subscribe stands in,
   * answering the subscription a browser would make, and records the key it
   * was given. Everything else (permission, the key from the server, POST
   * and DELETE) is real.
   */
  async function fakePushManager(page) {
    const ecdh = createECDH('prime256v1');
    const keys = { p256dh: ecdh.generateKeys().toString('base64url'), auth: randomBytes(16).toString('base64url') };
    await page.addInitScript((subKeys) => {
      // The subscription outlives a reload, as a browser's does (sessionStorage).
      const saved = sessionStorage.getItem('fake-push-key');
      const fake = (key) => ({
        endpoint: 'https://push.example.test/send/e2e-' + location.port,
        options: { applicationServerKey: new Uint8Array(key).buffer },
        toJSON() {
          return { endpoint: this.endpoint, expirationTime: null, keys: subKeys };
        },
        async unsubscribe() { current = null; sessionStorage.removeItem('fake-push-key'); return true; },
      });
      let current = saved === null ? null : fake(JSON.parse(saved));
      PushManager.prototype.subscribe = async function (o) {
        const key = Array.from(new Uint8Array(o.applicationServerKey));
        sessionStorage.setItem('fake-push-key', JSON.stringify(key));
        window.subscribedKey = key;
        current = fake(key);
        return current;
      };
      PushManager.prototype.getSubscription = async function () { return current; };
    }, keys);
  }

  test('allowing notifications from the banner also turns push on', async () => {
    const page = await newPage(browser, desktop);
    await fakePushManager(page);
    // The browser has not been asked yet ("default"); its prompt answers Allow.
    await page.addInitScript(() => {
      let answer = 'default';
      Object.defineProperty(Notification, 'permission', { get: () => answer });
      Notification.requestPermission = async () => { answer = 'granted'; return answer; };
    });
    await page.context().grantPermissions(['notifications'], { origin: server.url });
    // The banner offers notifications once an agent exists.
    await api(server, 'POST', '/api/sessions', { cwd: await server.tempDir(), title: 'banner' });
    await signIn(page, server);
    const file = path.join(server.dataDir, 'push-subscriptions.json');
    await page.getByRole('region', { name: 'Notifications' }).getByRole('button', { name: 'Enable' }).click();
    const want = [`https://push.example.test/send/e2e-${new URL(server.url).port}`];
    await until(async () => {
      const stored = JSON.parse(await readFile(file, 'utf8').catch(() => '[]'));
      return stored.length === 1 && stored;
    }, 'the subscription stored by the banner');
    assert.deepEqual(JSON.parse(await readFile(file, 'utf8')).map((x) => x.endpoint), want);
    await page.locator('.inbox-btn').click();
    await page.locator('.push-switch[aria-checked="true"]').waitFor();
    await page.locator('.push-switch').click();
    await page.locator('.push-switch[aria-checked="false"]').waitFor();
    assert.deepEqual(JSON.parse(await readFile(file, 'utf8')), [], 'off again: nothing left for the other tests');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  for (const [size, opts] of [['phone', phone], ['desktop', desktop]]) {
    test(`${size}: the Push notifications switch subscribes and unsubscribes`, async () => {
      const page = await newPage(browser, opts);
      await page.context().grantPermissions(['notifications'], { origin: server.url });
      await fakePushManager(page);
      await signIn(page, server);
      if (size === 'phone') await page.locator('.menu-btn').click();
      await page.locator('.inbox-btn').click();
      const sw = page.getByRole('switch', { name: 'Push notifications' });
      await sw.waitFor();
      assert.equal(await sw.getAttribute('aria-checked'), 'false');
      assert.ok((await sw.boundingBox()).height >= 40, 'a touch target of 40 px at least');
      assert.deepEqual(await overflow(page), []);
      assert.deepEqual(await smallTargets(page, size === 'phone' ? 40 : 0), []);

      await sw.click();
      // Settled: on, or enabled again with the reason it is off (the note says what it waits for meanwhile).
      await until(async () => (await sw.getAttribute('aria-checked')) === 'true' || !(await sw.isDisabled()), 'the switch');
      assert.equal(await sw.getAttribute('aria-checked'), 'true', await page.locator('.push-note').textContent());
      const { publicKey } = await api(server, 'GET', '/api/push/key');
      const key = await page.evaluate(() => window.subscribedKey);
      assert.equal(Buffer.from(key).toString('base64url'), publicKey, 'subscribed with the server key');
      const file = path.join(server.dataDir, 'push-subscriptions.json');
      const stored = JSON.parse(await readFile(file, 'utf8'));
      assert.deepEqual(stored.map((x) => x.endpoint), [`https://push.example.test/send/e2e-${new URL(server.url).port}`]);
      await shoot(page, `push-switch-${size}`);

      // A reload finds the subscription and shows the switch on.
      const reopen = async () => {
        await page.reload();
        await page.locator('.conn[data-state="open"]').waitFor();
        if (size === 'phone') await page.locator('.menu-btn').click();
        await page.locator('.inbox-btn').click();
      };
      await reopen();
      await page.locator('.push-switch[aria-checked="true"]').waitFor();
      // A subscription made with other keys (the server's data dir is new) is dropped, and the switch says so.
      await page.evaluate(() => sessionStorage.setItem('fake-push-key', JSON.stringify(Array(65).fill(4))));
      await reopen();
      await page.locator('.push-note', { hasText: 'push keys changed' }).waitFor();
      assert.equal(await sw.getAttribute('aria-checked'), 'false');
      assert.equal(await page.evaluate(() => sessionStorage.getItem('fake-push-key')), null, 'unsubscribed');
      await sw.click();
      await page.locator('.push-switch[aria-checked="true"]').waitFor();

      await sw.click();
      await page.locator('.push-switch[aria-checked="false"]').waitFor();
      assert.deepEqual(JSON.parse(await readFile(file, 'utf8')), [], 'unsubscribing deleted it on the server');
      assert.deepEqual(page.errors, []);
      await page.context().close();
    });
  }

  test('over plain http on a non-loopback name the switch says why push is off', async () => {
    const page = await newPage(browser, phone);
    await page.addInitScript(() => Object.defineProperty(window, 'isSecureContext', { value: false }));
    await signIn(page, server);
    await page.locator('.menu-btn').click();
    await page.locator('.inbox-btn').click();
    const sw = page.getByRole('switch', { name: 'Push notifications' });
    assert.equal(await sw.isDisabled(), true);
    assert.match(await page.locator('.push-note').textContent(), /^Push needs a secure page: open agentdesk over https .*README → Push notifications/);
    await shoot(page, 'push-insecure-phone');
    await page.context().close();
  });

  async function shoot(page, name) {
    if (!shots) return;
    for (const scheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: path.join(shots, `${name}-${scheme}.png`) });
    }
    await page.emulateMedia({ colorScheme: 'light' });
  }
});
