// Accessibility of every screen (issue 22, item 22): axe-core's WCAG 2.1 A
// and AA rules, and 2.2 AA's (target size), find nothing on the sessions
// list, a chat with tool cards, code blocks of many token kinds and a
// waiting permission card, the terminal, the diff, the new-session form,
// the search palette and the "needs you" inbox, at desktop (1280x800) and
// phone (390x844) size, in the light and the dark theme. axe's
// color-contrast rule holds every text on those screens, the highlighted
// code's tokens included, at AA contrast. A violation fails the test with
// its rule, node and axe's summary. Screenshots of every screen go to
// $SHOTS_DIR when it is set.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { axeViolations, axeViolationsScrolled, describeViolations } from './axe.mjs';
import { desktop, launchBrowser, newPage, phone, waitMs } from './browser.mjs';
import { api, makeRepo, signIn, startWithFakeClaude } from './ux.mjs';

const sid = '{{SESSION_ID}}';
const usage = { input_tokens: 10, output_tokens: 20 };
const assistant = (id, content) => ({ type: 'assistant', message: { id, type: 'message', role: 'assistant', model: 'claude-fake', content, stop_reason: null, usage }, parent_tool_use_id: null, session_id: sid, uuid: '{{UUID}}' });
const toolResult = (id, content) => ({ type: 'user', message: { role: 'user', content: [{ tool_use_id: id, type: 'tool_result', content, is_error: false }] }, parent_tool_use_id: null, session_id: sid, uuid: '{{UUID}}' });
const init = { type: 'system', subtype: 'init', cwd: '{{CWD}}', session_id: sid, tools: ['Bash', 'Edit'], model: 'claude-fake', permissionMode: 'default', uuid: '{{UUID}}' };
const result = (text) => ({ type: 'result', subtype: 'success', is_error: false, duration_ms: 1200, num_turns: 1, result: text, session_id: sid, total_cost_usd: 0.01, usage, uuid: '{{UUID}}' });

/** Code of many token kinds: keywords, names, strings, numbers, comments, operators, builtins. */
const code = [
  '```go',
  'package main',
  '',
  'import "fmt"',
  '',
  '// main prints a greeting and a number.',
  'func main() {',
  '\tconst n = 42 /* answer */',
  '\tvar ok bool = true',
  '\tfmt.Printf("hello %d\\n", n+1)',
  '\tif !ok { panic(nil) }',
  '}',
  '```',
  '',
  '```python',
  '@decorator',
  'def greet(name: str) -> None:',
  '    """Say hello."""',
  "    print(f'hi {name}', 3.14, 0x1F)  # a comment",
  '    return None',
  '```',
  '',
  '```sh',
  'export PATH="$HOME/bin:$PATH" # shell',
  'echo $((1 + 2)) && ls -la | grep main',
  '```',
  '',
  '```json',
  '{"name": "agentdesk", "count": 3, "ok": true, "none": null}',
  '```',
  '',
  '```diff',
  '--- a/main.go',
  '+++ b/main.go',
  '@@ -1,2 +1,2 @@',
  '-old line',
  '+new line',
  '```',
].join('\n');

/** Turn 1: text, code of many kinds, a Bash tool with output, an edit, a table. Turn 2: waits on a permission. */
function script() {
  return [
    init,
    { type: 'assistant', message: { id: 'msg_t', type: 'message', role: 'assistant', model: 'claude-fake', content: [{ type: 'thinking', thinking: 'Let me look at the code first.', signature: 'x' }], stop_reason: null, usage }, parent_tool_use_id: null, session_id: sid, uuid: '{{UUID}}' },
    assistant('msg_1', [{ type: 'text', text: 'Here is **the plan**, with `inline code` and a [link](https://example.com):\n\n' + code }]),
    assistant('msg_1', [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'ls -la', description: 'List files' } }]),
    toolResult('toolu_1', Array.from({ length: 80 }, (_, i) => `line ${i}: ${'x'.repeat(150)}`).join('\n')),
    assistant('msg_1', [{ type: 'tool_use', id: 'toolu_2', name: 'Edit', input: { file_path: '{{CWD}}/main.go', old_string: 'func main() {}\n', new_string: 'func main() {\n\tfmt.Println("hi", 42) // greet\n}\n' } }]),
    toolResult('toolu_2', 'The file main.go has been updated.'),
    assistant('msg_2', [{ type: 'text', text: 'Done.\n\n| file | lines |\n| --- | --- |\n| main.go | 12 |\n\n> a quote' }]),
    result('Done.'),
    init,
    { type: 'control_request', request_id: 'perm-{{UUID}}', request: { subtype: 'can_use_tool', tool_name: 'Edit', input: { file_path: '{{CWD}}/main.go', old_string: 'package main\n', new_string: 'package main // the entry point\n' }, tool_use_id: 'toolu_p1' } },
    assistant('msg_p', [{ type: 'text', text: 'Edited.' }]),
    result('Edited.'),
  ];
}

const shots = process.env.SHOTS_DIR;

const combos = [['desktop', desktop], ['phone', phone]].flatMap(([size, opts]) => ['light', 'dark'].map((scheme) => ({ size, scheme, opts: { ...opts, colorScheme: scheme } })));

describe('accessibility (axe-core, WCAG 2.1 A/AA and 2.2 AA)', { timeout: 600_000 }, () => {
  let tmp;
  let server;
  let browser;
  let repo;
  let chat; // { sid, wid } with tool cards and a waiting permission
  let term;
  let diff;

  before(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'agentdesk-a11y-'));
    server = await startWithFakeClaude(tmp, script());
    browser = await launchBrowser();
    repo = await makeRepo(tmp, 'demo');
    const s = await api(server, 'POST', '/api/sessions', { cwd: repo, title: 'Fix the login flow' });
    const wid = s.workers.find((w) => w.kind === 'sdk').id;
    chat = { sid: s.id, wid };
    const input = (content) => api(server, 'POST', `/api/sessions/${s.id}/workers/${wid}/input`, { content });
    await input('Please **fix** the `login` flow');
    await waitFor(async () => (await messages(s.id, wid)).some((m) => m.message.type === 'result'), 'the first turn ends');
    await input('Now edit main.go');
    await waitFor(async () => (await api(server, 'GET', `/api/sessions/${s.id}/workers/${wid}`)).activity === 'asking', 'the permission request waits');
    await writeFile(path.join(repo, 'main.go'), 'package main\n\nimport "fmt"\n\n// main greets.\nfunc main() {\n\tfmt.Println("hello", 42)\n}\n');
    term = (await api(server, 'POST', `/api/sessions/${s.id}/workers`, { kind: 'terminal' })).id;
    diff = s.workers.find((w) => w.kind === 'git-diff').id;
    await api(server, 'POST', '/api/sessions', { cwd: await server.tempDir(), title: 'A second session', agent: 'none' });
  });

  after(async () => {
    await browser?.close();
    await server?.dispose();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  async function messages(s, w) {
    return (await api(server, 'GET', `/api/sessions/${s}/workers/${w}/messages?limit=200`)).messages;
  }

  async function waitFor(cond, what) {
    const deadline = Date.now() + waitMs;
    while (!(await cond())) {
      if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  for (const { size, scheme, opts } of combos) {
    test(`${size}, ${scheme}: no WCAG A/AA violation on any screen`, async () => {
      const page = await newPage(browser, opts);
      const found = [];
      const check = async (screen, scroller = null) => {
        const v = scroller === null ? await axeViolations(page) : await axeViolationsScrolled(page, scroller);
        if (v.length > 0) found.push(`${screen}:\n  ${describeViolations(v).replace(/\n/g, '\n  ')}`);
        await shoot(screen);
      };
      const shoot = async (screen) => {
        if (!shots) return;
        await mkdir(shots, { recursive: true });
        await page.screenshot({ path: path.join(shots, `${size}-${scheme}-${screen.replace(/\W+/g, '-')}.png`) });
      };
      const phoneSize = size === 'phone';
      const openDrawer = async () => {
        if (phoneSize) await page.getByRole('button', { name: 'Sessions', exact: true }).click();
      };

      await signIn(page, server);
      await page.locator('.session-title', { hasText: 'A second session' }).first().waitFor({ state: 'attached' });
      await check('sessions list');
      if (phoneSize) {
        await openDrawer();
        await page.locator('.app[data-drawer="open"]').waitFor();
        await check('sessions drawer');
        await page.keyboard.press('Escape');
      }

      await page.goto(`${server.url}/s/${chat.sid}/w/${chat.wid}`);
      const pane = page.locator('.pane-chat:not([hidden])');
      await pane.locator('.chat-result').first().waitFor();
      await pane.locator('.chat-perm').waitFor();
      // Code is coloured in the browser as it nears the view: bring each
      // block near it so that axe sees every token colour.
      const code = '.pane-chat:not([hidden]) .md pre > code[class*="language-"]';
      await page.locator(code).first().waitFor();
      for (let i = 0, n = await page.locator(code).count(); i < n; i++) {
        await page.locator(code).nth(i).locator('..').scrollIntoViewIfNeeded();
        await page.waitForFunction(([sel, i]) => document.querySelectorAll(sel)[i]?.hasAttribute('data-hl'), [code, i]);
      }
      await pane.locator('pre > code[data-hl="done"] .hl-kw').first().waitFor();
      // Back at the newest message, where the chat opened.
      await pane.locator('.chat-scroll').evaluate((el) => { el.scrollTop = el.scrollHeight; });
      await page.waitForFunction(() => { const el = document.querySelector('.pane-chat:not([hidden]) .chat-scroll'); return el !== null && el.scrollHeight - el.scrollTop - el.clientHeight < 2; });
      await check('chat with tool cards and a permission card', '.pane-chat:not([hidden]) .chat-scroll');
      for (const [i, what] of [[0, 'go'], [1, 'python'], [4, 'diff']]) {
        await pane.locator('.md pre').nth(i).scrollIntoViewIfNeeded();
        await shoot(`chat code ${what}`);
      }
      await pane.locator('.tool-diff').first().scrollIntoViewIfNeeded();
      await shoot('chat edit diff');
      await pane.locator('.chat-scroll').evaluate((el) => { el.scrollTop = el.scrollHeight; });

      await page.goto(`${server.url}/s/${chat.sid}/w/${term}`);
      await page.locator('.pane-terminal:not([hidden]) .term-status[data-state="open"]').waitFor();
      await check('terminal');

      await page.goto(`${server.url}/s/${chat.sid}/w/${diff}`);
      await page.locator('.pane-diff:not([hidden]) .df-section').first().waitFor();
      await page.locator('.pane-diff:not([hidden]) .dd-row.dl-add').first().waitFor();
      await check('diff', '.pane-diff:not([hidden]) .dd-scroll');

      await openDrawer();
      await page.getByRole('button', { name: '+ New session' }).first().click();
      await page.locator('#ns-cwd').fill(repo);
      await page.locator('.ns-worktree:not([hidden])').waitFor();
      await check('new-session form');
      await page.getByRole('button', { name: 'Cancel' }).click();

      await page.goto(server.url);
      await page.locator('.conn[data-state="open"]').waitFor();
      await page.keyboard.press('Control+k');
      await page.locator('dialog.palette[open]').waitFor();
      await page.keyboard.type('login');
      await page.locator('.palette-hit').first().waitFor();
      await check('search palette');
      await page.keyboard.press('Escape'); // clears the search field
      await page.keyboard.press('Escape');
      await page.locator('dialog.palette[open]').waitFor({ state: 'detached' });

      await openDrawer();
      await page.locator('.inbox-btn').click();
      await page.locator(`.inbox-item[data-sid="${chat.sid}"]`).first().waitFor();
      await check('inbox');

      assert.deepEqual(page.errors, []);
      await page.context().close();
      assert.equal(found.length, 0, `axe found violations:\n${found.join('\n')}`);
    });
  }
});
