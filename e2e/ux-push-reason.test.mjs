// Browser tests of the "Push notifications" switch's reasons (issue 22,
// item 18), at phone and desktop size: whenever the switch is greyed out
// the note under it says why (no service worker, not a secure page, no
// PushManager, notifications blocked, the browser's push service refused,
// waiting for the service worker), and the switch names the note as its
// description.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { desktop, launchBrowser, newPage, phone } from './browser.mjs';
import { overflow, signIn, startWithFakeClaude } from './ux.mjs';

/** Page set-ups, each a browser that cannot (yet) push, and what the note must say. */
const cases = [
  ['no service worker', () => { delete Navigator.prototype.serviceWorker; }, /no service worker/],
  ['not a secure page', () => Object.defineProperty(window, 'isSecureContext', { value: false }), /secure page: open agentdesk over https/],
  ['no PushManager', () => { delete window.PushManager; }, /does not offer push here/],
  ['notifications blocked', () => Object.defineProperty(Notification, 'permission', { get: () => 'denied' }), /Notifications are blocked for this site/],
];

describe('why push is off', { timeout: 300_000 }, () => {
  let tmp;
  let server;
  let browser;

  before(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'agentdesk-ux-push-'));
    server = await startWithFakeClaude(tmp);
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await server?.dispose();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  /** Opens the inbox panel, where the switch is; returns the switch and its note. */
  async function openSwitch(opts, setup) {
    const page = await newPage(browser, opts);
    if (setup !== null) await page.addInitScript(setup);
    await signIn(page, server);
    if (opts === phone) await page.locator('.menu-btn').click();
    await page.locator('.inbox-btn').click();
    const sw = page.getByRole('switch', { name: 'Push notifications' });
    await sw.waitFor();
    return { page, sw, note: page.locator('.push-note') };
  }

  /** The switch is greyed out and its description is a reason matching re. */
  async function greyedWithReason(page, sw, note, re) {
    await page.waitForFunction(() => document.querySelector('.push-switch')?.disabled === true);
    const text = await note.textContent();
    assert.match(text, re);
    assert.ok(await note.isVisible(), 'the reason shows');
    const described = await sw.getAttribute('aria-describedby');
    assert.equal(await page.locator(`#${described}`).textContent(), text, 'the switch is described by its reason');
  }

  for (const [what, setup, re] of cases) {
    test(`phone: ${what}: greyed out, and the note says why`, async () => {
      const { page, sw, note } = await openSwitch(phone, setup);
      await greyedWithReason(page, sw, note, re);
      assert.deepEqual(await overflow(page), []);
      assert.deepEqual(page.errors, []);
      await page.context().close();
    });
  }

  test('desktop: the browser has no push service: the note says so in words', async () => {
    const { page, sw, note } = await openSwitch(desktop, () => {
      Object.defineProperty(Notification, 'permission', { get: () => 'granted' });
      Notification.requestPermission = async () => 'granted';
      PushManager.prototype.subscribe = async () => { throw new DOMException('Registration failed - push service not available', 'AbortError'); };
      PushManager.prototype.getSubscription = async () => null;
    });
    await sw.click();
    await note.filter({ hasText: 'push service' }).waitFor();
    assert.match(await note.textContent(), /^The browser could not reach its push service \(Registration failed - push service not available\)/);
    assert.equal(await sw.getAttribute('aria-checked'), 'false');
    assert.equal(await sw.isDisabled(), false, 'it can be tried again');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('desktop: while the service worker does not start, the greyed switch says what it waits for', async () => {
    const { page, sw, note } = await openSwitch(desktop, () => {
      Object.defineProperty(Notification, 'permission', { get: () => 'granted' });
      Notification.requestPermission = async () => 'granted';
      const sw = navigator.serviceWorker;
      sw.register = async () => ({});
      Object.defineProperty(sw, 'ready', { get: () => new Promise(() => {}) }); // never ready
      sw.getRegistration = async () => undefined;
    });
    await sw.click();
    await greyedWithReason(page, sw, note, /^Starting the service worker…$/);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});
