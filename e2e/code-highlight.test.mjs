// Browser tests of code-block highlighting: the server sends fenced code
// plain (<pre><code class="language-X">) and the page colours it with lezer
// when the block comes into view, in both themes at desktop and phone size.
// A language without a parser stays plain; a long block is coloured up to a
// cap and keeps all its text. SHOTS_DIR set: screenshots of each combination.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { desktop, launchBrowser, newPage, phone } from './browser.mjs';
import { chatTurnLines, signIn, startWithFakeClaude } from './ux.mjs';

const chat = '.pane-chat:not([hidden])';
const shots = process.env.SHOTS_DIR;
const longLine = 'value = compute(1, "two")  # a comment\n';
const userText = '```sh\necho plain\n```\n\n```python\n' + longLine.repeat(1200) + '```';

// Each theme's colour of a keyword (/highlight.css: github-dark's and github's).
const keyword = { dark: 'rgb(255, 123, 114)', light: 'rgb(207, 34, 46)' };

describe('code blocks are highlighted in the browser', { timeout: 300_000 }, () => {
  let tmp;
  let server;
  let browser;
  let url;

  before(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'agentdesk-hl-'));
    server = await startWithFakeClaude(tmp, chatTurnLines());
    browser = await launchBrowser();
    const page = await newPage(browser, desktop);
    await signIn(page, server);
    await page.getByRole('button', { name: '+ New session' }).first().click();
    await page.locator('#ns-cwd').fill(await server.tempDir());
    await page.locator('#ns-title').fill('code');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/\/s\/[^/]+\/w\/[^/]+$/);
    await page.waitForFunction(() => document.querySelector('.pane-chat:not([hidden]) .chat-input')?.disabled === false);
    const input = page.locator(`${chat} .chat-input`);
    await input.fill(userText);
    await input.press('Enter');
    await page.locator(`${chat} .chat-result`).waitFor();
    url = page.url();
    await page.context().close();
  });

  after(async () => {
    await browser?.close();
    await server?.dispose();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  for (const [size, opts] of [['desktop', desktop], ['phone', phone]]) {
    for (const scheme of ['light', 'dark']) {
      test(`${size}, ${scheme}: a Go block gets token spans in the theme's colours`, async () => {
        const page = await newPage(browser, { ...opts, colorScheme: scheme });
        await signIn(page, server, new URL(url).pathname);
        const go = page.locator(`${chat} .chat-text pre > code.language-go`);
        await page.locator(`${chat} .chat-text pre:has(> code.language-go)`).scrollIntoViewIfNeeded();
        await page.locator(`${chat} .chat-text pre > code.language-go[data-hl="done"]`).waitFor();
        const kw = go.locator('.hl-kw').first();
        assert.equal(await kw.textContent(), 'func');
        assert.equal(await kw.evaluate((el) => getComputedStyle(el).color), keyword[scheme]);
        assert.ok(await go.locator('.hl-str').count() >= 1, 'the string is a token');
        assert.match(await go.textContent(), /^func main\(\) \{\n\tfmt\.Println\("a very long line/, 'the text is unchanged');
        if (shots) await page.screenshot({ path: path.join(shots, `code-${size}-${scheme}.png`) });
        assert.deepEqual(page.errors, []);
        await page.context().close();
      });
    }
  }

  test('a language without a parser stays plain; a long block is coloured up to the cap and keeps its text', async () => {
    const page = await newPage(browser, desktop);
    await signIn(page, server, new URL(url).pathname);
    const sh = page.locator(`${chat} .chat-user pre > code.language-sh`);
    await page.locator(`${chat} .chat-user pre:has(> code.language-sh)`).scrollIntoViewIfNeeded();
    await page.locator(`${chat} .chat-user pre > code.language-sh[data-hl="plain"]`).waitFor();
    assert.equal(await sh.locator('span').count(), 0);
    const py = page.locator(`${chat} .chat-user pre > code.language-python`);
    await page.locator(`${chat} .chat-user pre:has(> code.language-python)`).scrollIntoViewIfNeeded();
    await page.locator(`${chat} .chat-user pre > code.language-python[data-hl="done"]`).waitFor();
    assert.equal(await py.textContent(), longLine.repeat(1200), 'every character is still there');
    const [spans, lastText] = await py.evaluate((el) => [el.querySelectorAll('.hl-com').length, el.lastChild?.nodeType === Node.TEXT_NODE ? el.lastChild.textContent.length : 0]);
    const capLines = Math.floor(20_000 / longLine.length);
    assert.ok(spans >= capLines - 1 && spans <= capLines, `comments coloured up to the cap: ${spans} of 1200`);
    assert.ok(lastText > 20_000, 'the rest is one plain text node');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});
