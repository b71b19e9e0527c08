// Browser end-to-end for attachments in the chat pane, with the real Claude
// CLI against the fake Messages API: an image pasted (a synthetic
// ClipboardEvent) and a text file dropped (synthetic drag events) show as
// chips, go with the message, show in the sent message (the image served by
// URL, opened full size, closed with Escape), reach the CLI (the fake API
// echoes the CLI's "[Image: …]" note), survive a reload, and a file of a
// type that is not allowed is refused before anything is sent. Screenshots
// at 1280x800 and 390x844, light and dark, go to $ATTACH_SHOTS when set.
import assert from 'node:assert/strict';
import { access, mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { desktop, launchBrowser, newPage, phone, waitMs } from './browser.mjs';
import { claudeBin, claudeServerOptions, startFakeApi } from './fakeapi.mjs';
import { AgentdeskServer } from './server.mjs';
import { overflow, smallTargets } from './ux.mjs';

/** A w×h PNG with a colour gradient, as base64. */
function gradientPNG(w, h) {
  const rows = [];
  for (let y = 0; y < h; y++) {
    const row = Buffer.alloc(1 + 3 * w);
    for (let x = 0; x < w; x++) row.set([Math.round(255 * x / w), Math.round(255 * y / h), 160], 1 + 3 * x);
    rows.push(row);
  }
  const chunk = (type, data) => {
    const len = Buffer.alloc(4); len.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4); crc.writeUInt32BE(zlib.crc32(Buffer.concat([Buffer.from(type), data])));
    return Buffer.concat([len, Buffer.from(type), data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0); ihdr.writeUInt32BE(h, 4); ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(Buffer.concat(rows))), chunk('IEND', Buffer.alloc(0))]).toString('base64');
}

describe('chat attachments with the real Claude CLI', { timeout: 300_000 }, () => {
  let tmp;
  let api;
  let server;
  let browser;
  let page;
  const png = gradientPNG(96, 64);
  const shots = process.env.ATTACH_SHOTS;

  before(async () => {
    await access(claudeBin);
    tmp = await mkdtemp(path.join(os.tmpdir(), 'agentdesk-attach-e2e-'));
    api = await startFakeApi(tmp);
    server = await AgentdeskServer.start(claudeServerOptions(api.url));
    browser = await launchBrowser();
    if (shots) await mkdir(shots, { recursive: true });
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

  const pane = (p = page) => p.locator('.pane-chat:not([hidden])');

  /** Pastes files into the message box: a ClipboardEvent carrying a DataTransfer. */
  function paste(p, files) {
    return pane(p).locator('.chat-input').evaluate((el, files) => {
      const dt = new DataTransfer();
      for (const f of files) dt.items.add(new File([Uint8Array.from(atob(f.b64), (c) => c.charCodeAt(0))], f.name, { type: f.type }));
      el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
    }, files);
  }

  /** Drags files over the chat and drops them. */
  function drop(p, files) {
    return pane(p).locator('.chat-main').evaluate((el, files) => {
      const dt = new DataTransfer();
      for (const f of files) dt.items.add(new File([f.text], f.name, { type: f.type }));
      for (const type of ['dragenter', 'dragover', 'drop']) el.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, files);
  }

  async function shoot(name, p = page) {
    if (shots) await p.screenshot({ path: path.join(shots, `${name}.png`) });
  }

  async function openSession(p, title) {
    await p.goto(`${server.url}/?token=${server.token}`);
    await p.locator('.conn[data-state="open"]').waitFor({ timeout: waitMs });
    const cwd = await mkdtemp(path.join(tmp, 'work-'));
    const res = await p.evaluate(async ({ cwd, title }) => {
      const r = await fetch('/api/sessions', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ cwd, title }) });
      return r.json();
    }, { cwd, title });
    await p.goto(`${server.url}/s/${res.id}`);
    await pane(p).locator('.chat-conn[data-state="open"]').waitFor({ timeout: waitMs });
  }

  test('paste an image, drop a file, send, see them, open full size', async () => {
    page = await newPage(browser, { ...desktop, colorScheme: 'dark' });
    await openSession(page, 'attachments');
    await paste(page, [{ name: 'gradient.png', type: 'image/png', b64: png }]);
    await drop(page, [{ name: 'notes.md', type: '', text: '# Notes\nthe word is kiwi\n' }]);
    const chips = pane().locator('.chat-attach-chip');
    await chips.nth(1).waitFor({ timeout: waitMs });
    assert.deepEqual(await chips.evaluateAll((els) => els.map((e) => e.dataset.name)), ['gradient.png', 'notes.md']);
    assert.equal(await chips.first().locator('img.chat-attach-thumb').count(), 1, 'the image chip has a thumbnail');
    assert.match(await chips.nth(1).innerText(), /notes\.md[\s\S]*\d+ B/);
    await pane().locator('.chat-input').fill('what do you see?');
    await shoot('composer-desktop-dark');

    await pane().locator('.chat-input').press('Enter');
    const bubble = pane().locator('.chat-user', { hasText: 'what do you see?' });
    await bubble.waitFor({ timeout: waitMs });
    assert.equal(await pane().locator('.chat-attach-chip').count(), 0, 'the composer is emptied');
    const img = bubble.locator('img.chat-attachment-img');
    await img.waitFor({ timeout: waitMs });
    await page.waitForFunction((el) => el.complete && el.naturalWidth === 96, await img.elementHandle(), { timeout: waitMs });
    assert.equal(await bubble.locator('.chat-attachment-file', { hasText: 'notes.md' }).count(), 1);
    // The CLI got an image: it notes it for the model, and the fake API echoes that.
    await pane().locator('.chat-text', { hasText: '[Image: source:' }).waitFor({ timeout: waitMs });
    await pane().locator('.chat-result').first().waitFor({ timeout: waitMs });
    await shoot('message-desktop-dark');

    await bubble.locator('.chat-attachment-open').click();
    const box = page.locator('dialog.chat-lightbox[open]');
    await box.waitFor({ timeout: waitMs });
    assert.equal(await box.locator('img').evaluate((el) => el.naturalWidth), 96);
    await shoot('lightbox-desktop-dark');
    await page.keyboard.press('Escape');
    await box.waitFor({ state: 'detached', timeout: waitMs });

    // After a reload the message comes from the history with its attachments.
    await page.reload();
    await pane().locator('.chat-user', { hasText: 'what do you see?' }).locator('img.chat-attachment-img').waitFor({ timeout: waitMs });
    assert.deepEqual(page.errors, []);
  });

  test('a file that is not allowed is refused before anything is sent', async () => {
    const before = await pane().locator('.chat-user').count();
    await paste(page, [{ name: 'tool.exe', type: 'application/x-msdownload', b64: 'TVqQAAMAAAAEAAAA' }]);
    const err = pane().locator('.chat-attach-error');
    await err.waitFor({ state: 'visible', timeout: waitMs });
    assert.match(await err.innerText(), /tool\.exe cannot be attached/);
    assert.equal(await pane().locator('.chat-attach-chip').count(), 0);
    assert.equal(await pane().locator('.chat-user').count(), before, 'nothing was sent');
  });

  for (const scheme of ['light', 'dark']) {
    test(`phone (${scheme}): the composer's attachments are usable`, async () => {
      const p = await newPage(browser, { ...phone, colorScheme: scheme });
      await openSession(p, `phone ${scheme}`);
      await paste(p, [{ name: 'gradient.png', type: 'image/png', b64: png }]);
      await drop(p, [{ name: 'a-rather-long-file-name-for-a-phone-screen.txt', type: 'text/plain', text: 'hello\n' }]);
      await pane(p).locator('.chat-attach-chip').nth(1).waitFor({ timeout: waitMs });
      await shoot(`composer-phone-${scheme}`, p);
      assert.deepEqual(await overflow(p), []);
      const small = (await smallTargets(p, 40)).filter((s) => /Attach|Remove/.test(s));
      assert.deepEqual(small, [], 'attach and remove buttons are at least 40 px');
      await pane(p).locator('.chat-send').click();
      const bubble = pane(p).locator('.chat-user img.chat-attachment-img');
      await bubble.waitFor({ timeout: waitMs });
      await pane(p).locator('.chat-result').first().waitFor({ timeout: waitMs });
      await shoot(`message-phone-${scheme}`, p);
      await bubble.click();
      await p.locator('dialog.chat-lightbox[open]').waitFor({ timeout: waitMs });
      await shoot(`lightbox-phone-${scheme}`, p);
      assert.deepEqual(await overflow(p), []);
      await p.context().close();
    });
  }

  test('desktop (light): the sent image and a pasted one show', async () => {
    const p = await newPage(browser, { ...desktop, colorScheme: 'light' });
    await p.goto(`${server.url}/?token=${server.token}`);
    await p.locator('.conn[data-state="open"]').waitFor({ timeout: waitMs });
    await p.goto(page.url());
    await pane(p).locator('.chat-attachment-img').first().waitFor({ timeout: waitMs });
    await paste(p, [{ name: 'gradient.png', type: 'image/png', b64: png }]);
    await pane(p).locator('.chat-attach-chip').first().waitFor({ timeout: waitMs });
    await shoot('desktop-light', p);
    assert.deepEqual(await overflow(p), []);
    assert.deepEqual(p.errors, []);
    await p.context().close();
  });
});
