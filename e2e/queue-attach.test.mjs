// Browser end-to-end for queued messages with attachments, with the real
// Claude CLI against the fake Messages API: while a slow turn runs, an
// image pasted into the composer is queued with its message (Send says
// "Queue"); the files leave the composer once the server stored them; the
// queued item shows the image as a chip with a thumbnail served by URL; a
// file the server refuses stays in the composer with the server's message;
// a reload shows the chip again; when the turn ends (Cancel) the message
// is delivered and the transcript shows its image, and the CLI got it (the
// fake API echoes the CLI's "[Image: …]" note). Screenshots of the queued
// item (1280x800 and 390x844, light and dark) go to $QATTACH_SHOTS when set.
import assert from 'node:assert/strict';
import { access, mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { desktop, launchBrowser, newPage, phone, waitMs } from './browser.mjs';
import { claudeBin, claudeServerOptions, startFakeApi } from './fakeapi.mjs';
import { AgentdeskServer } from './server.mjs';
import { api, overflow, signIn, smallTargets } from './ux.mjs';

/** A w×h PNG with a colour gradient, as base64. */
function gradientPNG(w, h) {
  const rows = [];
  for (let y = 0; y < h; y++) {
    const row = Buffer.alloc(1 + 3 * w);
    for (let x = 0; x < w; x++) row.set([160, Math.round(255 * x / w), Math.round(255 * y / h)], 1 + 3 * x);
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

describe('queued messages with attachments', { timeout: 600_000 }, () => {
  let tmp;
  let fake;
  let server;
  let browser;
  let page;
  let route;
  const png = gradientPNG(96, 64);
  const shots = process.env.QATTACH_SHOTS;

  before(async () => {
    await access(claudeBin);
    tmp = await mkdtemp(path.join(os.tmpdir(), 'agentdesk-qattach-e2e-'));
    process.env.FAKEAPI_SLOW_DELAY = '5s'; // the slow turn runs until the test cancels it
    fake = await startFakeApi(tmp);
    server = await AgentdeskServer.start(claudeServerOptions(fake.url));
    browser = await launchBrowser();
    if (shots) await mkdir(shots, { recursive: true });
  });

  after(async () => {
    await browser?.close();
    try {
      await server?.dispose();
    } finally {
      await fake?.stop();
      if (tmp) await rm(tmp, { recursive: true, force: true });
    }
  });

  const pane = (p = page) => p.locator('.pane-chat:not([hidden])');
  const noErrors = (p) => p.errors.filter((e) => !/WebSocket|status of 400/.test(e));

  /** Pastes files into the message box: a ClipboardEvent carrying a DataTransfer. */
  function paste(p, files) {
    return pane(p).locator('.chat-input').evaluate((el, files) => {
      const dt = new DataTransfer();
      for (const f of files) dt.items.add(new File([Uint8Array.from(atob(f.b64), (c) => c.charCodeAt(0))], f.name, { type: f.type }));
      el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
    }, files);
  }

  /** Waits for the queued item's image chip and its thumbnail, loaded by URL. */
  async function queuedChip(p) {
    const chip = pane(p).locator('.chat-queue-item .chat-queue-file[data-name="gradient.png"]');
    await chip.waitFor({ timeout: waitMs });
    await p.waitForFunction((el) => el.complete && el.naturalWidth === 96, await chip.locator('img.chat-queue-thumb').elementHandle(), { timeout: waitMs });
    return chip;
  }

  test('a pasted image sent during a turn is queued and shows as a chip', async () => {
    page = await newPage(browser, desktop);
    await signIn(page, server);
    const cwd = await mkdtemp(path.join(tmp, 'work-'));
    const s = await api(server, 'POST', '/api/sessions', { cwd, title: 'queue attachments' });
    route = `/s/${s.id}`;
    await page.goto(server.url + route);
    await pane().locator('.chat-conn[data-state="open"]').waitFor({ timeout: waitMs });
    const input = pane().locator('.chat-input');
    await input.fill('slow please');
    await input.press('Enter');
    await page.waitForFunction(() => document.querySelector('.pane-chat:not([hidden])')?.dataset.activity === 'active');

    // The server refuses a file (its bytes are not a PNG): it stays, with the server's message.
    await paste(page, [{ name: 'fake.png', type: 'image/png', b64: Buffer.from('hello, not a png').toString('base64') }]);
    await pane().locator('.chat-attach-chip').first().waitFor({ timeout: waitMs });
    await input.fill('refused');
    await input.press('Enter');
    const err = pane().locator('.chat-attach-error');
    await err.waitFor({ state: 'visible', timeout: waitMs });
    assert.match(await err.innerText(), /fake\.png.*not a valid image\/png/);
    assert.equal(await pane().locator('.chat-attach-chip').count(), 1, 'the refused file stays in the composer');
    assert.equal(await input.inputValue(), 'refused', 'so does the text');
    assert.equal(await pane().locator('.chat-queue-item').count(), 0, 'nothing was queued');
    await pane().locator('.chat-attach-chip').getByRole('button').click(); // remove it

    await paste(page, [{ name: 'gradient.png', type: 'image/png', b64: png }]);
    await pane().locator('.chat-attach-chip[data-name="gradient.png"]').waitFor({ timeout: waitMs });
    await input.fill('look at this queued picture');
    assert.equal((await pane().locator('.chat-send').innerText()).trim(), 'Queue');
    await input.press('Enter');
    const chip = await queuedChip(page);
    assert.match(await chip.locator('a').getAttribute('href'), /\/attachments\//);
    assert.equal(await pane().locator('.chat-attach-chip').count(), 0, 'the files left the composer');
    assert.equal(await input.inputValue(), '', 'so did the text');
    assert.equal(await pane().locator('.chat-user', { hasText: 'look at this queued picture' }).count(), 0, 'queued, not sent');
    assert.match(await pane().locator('.chat-queue-item .chat-queue-text').innerText(), /look at this queued picture/);

    await page.reload();
    await queuedChip(page);
    assert.deepEqual(noErrors(page), []);
  });

  test('the queued item with its image fits a phone, light and dark', async () => {
    for (const [name, opts] of [['desktop', desktop], ['phone', phone]]) {
      for (const scheme of ['light', 'dark']) {
        const p = await newPage(browser, { ...opts, colorScheme: scheme });
        await signIn(p, server, route);
        await queuedChip(p);
        if (name === 'phone') {
          assert.deepEqual(await overflow(p), [], 'nothing sticks out on a phone');
          assert.deepEqual((await smallTargets(p, 40)).filter((s) => /gradient|Move|Edit|Remove/.test(s)), [], 'touch-sized controls');
        }
        if (shots) {
          await pane(p).locator('.chat-queue').screenshot({ path: path.join(shots, `qattach-item-${name}-${scheme}.png`) });
          await p.screenshot({ path: path.join(shots, `qattach-${name}-${scheme}.png`) });
        }
        assert.deepEqual(noErrors(p), []);
        await p.context().close();
      }
    }
  });

  test('when the turn ends the message is delivered with its image', async () => {
    await pane().locator('.chat-cancel').click();
    const bubble = pane().locator('.chat-user', { hasText: 'look at this queued picture' });
    await bubble.waitFor({ timeout: waitMs });
    const img = bubble.locator('img.chat-attachment-img');
    await img.waitFor({ timeout: waitMs });
    await page.waitForFunction((el) => el.complete && el.naturalWidth === 96, await img.elementHandle(), { timeout: waitMs });
    // The CLI got the image: it notes it for the model, and the fake API echoes that.
    await pane().locator('.chat-text', { hasText: '[Image: source:' }).waitFor({ timeout: waitMs });
    await pane().locator('.chat-queue').waitFor({ state: 'hidden', timeout: waitMs });
    if (shots) await page.screenshot({ path: path.join(shots, 'qattach-delivered-desktop.png') });
    const left = await api(server, 'GET', `/api/sessions/${route.slice(3)}/workers/${await pane().getAttribute('data-worker-id')}/queue`);
    assert.deepEqual(left, { items: [] });
    assert.deepEqual(noErrors(page), []);
  });
});
