// Browser end-to-end of the Files tab on a real git repository, at desktop
// (1280×800, dark) and phone (390×844, light) size: a path in a chat's
// tool card opens the file in a Files tab it adds; the tree is browsed
// (markdown rendered, git marks shown, a file made on disk shows up live);
// a file is edited and saved, then edited while the agent changes it on
// disk, and the conflict is shown and resolved; two files are uploaded by
// a drop, one more replaces after a question; a folder is downloaded as a
// zip after its size; files are deleted with a confirmation that says what
// git can bring back; a PDF opens in the browser's viewer though it is
// served with a sandbox CSP. Every screen fits, and on the phone every control is
// a 44 px target. The pane's pure helpers (model.ts) are unit-tested first.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import ts from 'typescript';
import { desktop, launchBrowser, newPage, phone } from './browser.mjs';
import { api, coveredControls, git, overflow, signIn, smallTargets, startWithFakeClaude } from './ux.mjs';

async function load(rel) {
  const src = await readFile(new URL(`../frontend/src/${rel}`, import.meta.url), 'utf8');
  const js = ts.transpileModule(src, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
  return import(`data:text/javascript;base64,${Buffer.from(js).toString('base64')}`);
}

const model = await load('panes/files/model.ts');

describe('files pane helpers', () => {
  test('paths a tool names become paths of the tree, or null outside it', () => {
    const cases = [
      ['/w/app', '/w/app/src/a.go', 'src/a.go'],
      ['/w/app/', '/w/app/src/a.go', 'src/a.go'],
      ['/w/app', 'src/a.go', 'src/a.go'],
      ['/w/app', './src//a.go', 'src/a.go'],
      ['/w/app', '/w/app', '.'],
      ['/w/app', '/w/application/x', null],
      ['/w/app', '/etc/passwd', null],
      ['/w/app', '../x', null],
      ['/w/app', 'a/../../x', null],
      ['/w/app', 'a/../b', 'b'],
    ];
    for (const [cwd, p, want] of cases) assert.equal(model.treePath(cwd, p), want, `${cwd} ${p}`);
    assert.deepEqual(model.ancestors('a/b/c.txt'), ['.', 'a', 'a/b']);
    assert.equal(model.parentOf('a.txt'), '.');
    assert.equal(model.joinPath('.', 'x'), 'x');
  });

  test('sizes, names and what a delete means', () => {
    assert.equal(model.formatSize(999), '999 B');
    assert.equal(model.formatSize(1536), '1.5 KB');
    assert.equal(model.formatSize(10_485_760), '10.5 MB');
    assert.equal(model.nameProblem('a/../b'), '“..” cannot be used: only the session’s folder can be reached.');
    assert.equal(model.nameProblem('/etc'), 'Use a path inside the session’s folder, not an absolute one.');
    assert.equal(model.nameProblem('ok/name.txt'), null);
    const file = { path: 'a', type: 'file', repo: true, tracked: false, untracked: true };
    assert.match(model.deleteConsequences(file).join(' '), /cannot be brought back/);
    assert.match(model.deleteConsequences({ ...file, tracked: true, untracked: false }).join(' '), /restored with git/);
    assert.match(model.deleteConsequences({ ...file, repo: false }).join(' '), /not in a git repository/);
    const dir = { path: 'd', type: 'dir', repo: true, tracked: true, untracked: true };
    assert.equal(model.deleteConsequences(dir).length, 2);
  });
});

/** The chat's one turn: it reads src/main.go (a Read tool card with the path). */
function readTurn() {
  const sid = '{{SESSION_ID}}';
  const msg = (content) => ({ type: 'assistant', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-fake', content, stop_reason: null, usage: { input_tokens: 1, output_tokens: 1 } }, parent_tool_use_id: null, session_id: sid, uuid: '{{UUID}}' });
  return [
    { type: 'system', subtype: 'init', cwd: '{{CWD}}', session_id: sid, tools: ['Read'], model: 'claude-fake', permissionMode: 'default', uuid: '{{UUID}}' },
    msg([{ type: 'tool_use', id: 'toolu_r', name: 'Read', input: { file_path: '{{CWD}}/src/main.go' } }]),
    { type: 'user', message: { role: 'user', content: [{ tool_use_id: 'toolu_r', type: 'tool_result', content: '1\tpackage main', is_error: false }] }, parent_tool_use_id: null, session_id: sid, uuid: '{{UUID}}' },
    msg([{ type: 'text', text: 'I read it.' }]),
    { type: 'result', subtype: 'success', is_error: false, duration_ms: 10, num_turns: 1, result: 'I read it.', session_id: sid, total_cost_usd: 0, usage: { input_tokens: 1, output_tokens: 1 }, uuid: '{{UUID}}' },
  ];
}

/** A one-page PDF that says "Hello PDF". */
const minimalPdf = [
  '%PDF-1.1',
  '1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj',
  '2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj',
  '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 300 144]/Contents 4 0 R/Resources<</Font<</F1 5 0 R>>>>>>endobj',
  '4 0 obj<</Length 44>>stream',
  'BT /F1 24 Tf 30 70 Td (Hello PDF) Tj ET',
  'endstream endobj',
  '5 0 obj<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>endobj',
  'trailer<</Root 1 0 R>>',
  '',
].join('\n');

/** Screenshots of each screen go here when set (SHOTS_DIR=/tmp/x). */
const shots = process.env.SHOTS_DIR;

const sizes = { desktop: { ...desktop, colorScheme: 'dark' }, phone: { ...phone, colorScheme: 'light' } };

describe('the Files tab in a browser', { timeout: 600_000 }, () => {
  let tmp;
  let server;
  let browser;

  before(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'agentdesk-files-e2e-'));
    server = await startWithFakeClaude(tmp, readTurn());
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await server?.dispose();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  /** A repository with a tracked src/main.go and README.md, an untracked notes.txt and node_modules ignored. */
  async function makeProject(name) {
    const dir = path.join(tmp, name);
    await mkdir(path.join(dir, 'src'), { recursive: true });
    await mkdir(path.join(dir, 'node_modules/pkg'), { recursive: true });
    await git(dir, 'init', '-q', '-b', 'main');
    await writeFile(path.join(dir, '.gitignore'), 'node_modules\n');
    await writeFile(path.join(dir, 'README.md'), '# Project notes\n\nSome **bold** words.\n');
    await writeFile(path.join(dir, 'src/main.go'), 'package main\n\nfunc main() {}\n');
    await writeFile(path.join(dir, 'node_modules/pkg/index.js'), 'module.exports = 1;\n');
    await git(dir, 'add', '.');
    await git(dir, 'commit', '-q', '-m', 'init');
    await writeFile(path.join(dir, 'notes.txt'), 'scratch\n');
    return dir;
  }

  /** Problems with the layout now: overflow, covered controls, small targets on a phone. */
  async function layout(page, size, screen) {
    if (shots) await page.screenshot({ path: path.join(shots, `files-${size}-${screen}.png`) });
    const out = [];
    for (const o of await overflow(page)) out.push(`${size}/${screen}: overflow: ${o}`);
    const within = await page.evaluate(() => (document.querySelector('dialog[open]') ? 'dialog[open]' : null));
    for (const c of (await coveredControls(page, within)).covered) out.push(`${size}/${screen}: ${c}`);
    if (size === 'phone') for (const t of await smallTargets(page)) out.push(`${size}/${screen}: small target ${t}`);
    return out;
  }

  for (const [size, opts] of Object.entries(sizes)) {
    test(`${size}: tool card, browse, edit, conflict, upload, download, delete`, async () => {
      const dir = await makeProject(`project-${size}`);
      const s = await api(server, 'POST', '/api/sessions', { cwd: dir, title: `files ${size}` });
      const chat = s.workers.find((w) => w.kind === 'sdk');
      const page = await newPage(browser, { ...opts, acceptDownloads: true });
      const problems = [];
      const files = page.locator('.pane-files:not([hidden])');
      const row = (p) => files.locator(`.ft-row[data-path="${p}"]`);
      const onPhone = size === 'phone';
      /** On a phone the viewer covers the tree: go back to it. */
      const toTree = async () => {
        if (onPhone && (await files.getAttribute('data-view')) === 'file') await files.locator('.fv-back').click();
      };
      await signIn(page, server, `/s/${s.id}/w/${chat.id}`);

      // A path in a tool card opens the file in a Files tab the session did not have.
      const input = page.locator('.pane-chat:not([hidden]) .chat-input');
      await page.waitForFunction(() => document.querySelector('.pane-chat:not([hidden]) .chat-input')?.disabled === false);
      await input.fill('read main.go');
      await page.locator('.pane-chat:not([hidden]) .chat-send').click();
      await page.locator('.pane-chat:not([hidden]) .chat-result').waitFor();
      await page.locator('.pane-chat:not([hidden]) a.tool-file', { hasText: 'src/main.go' }).click();
      await files.locator('.fv-title', { hasText: 'main.go' }).waitFor();
      await files.locator('.fv-line', { hasText: 'package main' }).waitFor();
      assert.equal(await files.locator('.tk-k', { hasText: 'package' }).count(), 1, 'Go is highlighted');
      const workers = (await api(server, 'GET', `/api/sessions/${s.id}`)).workers;
      assert.equal(workers.filter((w) => w.kind === 'files').length, 1, 'one Files tab was added');
      problems.push(...await layout(page, size, 'file'));

      // Browse: the tree has the marks; markdown is rendered; node_modules is folded.
      await toTree();
      await row('src/main.go').waitFor();
      assert.equal(await row('notes.txt').getAttribute('data-git'), 'untracked');
      assert.equal(await row('node_modules').getAttribute('data-folded'), '');
      assert.equal(await row('node_modules').getAttribute('aria-expanded'), 'false', 'node_modules is not opened by itself');
      await row('README.md').click();
      await files.locator('.fv-md h1', { hasText: 'Project notes' }).waitFor();
      await files.locator('.fv-md strong', { hasText: 'bold' }).waitFor();
      problems.push(...await layout(page, size, 'markdown'));
      await toTree();
      problems.push(...await layout(page, size, 'tree'));
      // A PDF shows in the browser's own viewer, inside the sandboxed frame.
      if (!onPhone) {
        await writeFile(path.join(dir, 'doc.pdf'), minimalPdf);
        await row('doc.pdf').waitFor();
        const viewer = page.waitForEvent('framenavigated', (f) => f.url().startsWith('chrome-extension://'));
        await row('doc.pdf').click();
        await files.locator('iframe.fv-pdf').waitFor();
        await viewer;
      }
      // A file the agent makes shows up without a reload.
      await writeFile(path.join(dir, 'src', 'made-by-agent.go'), 'package main\n');
      await row('src/made-by-agent.go').waitFor();

      // Edit and save.
      await row('src/main.go').click();
      await files.locator('.fv-edit').click();
      await files.locator('.cm-content').waitFor();
      await files.locator('.cm-content').click();
      await page.keyboard.press('Control+End');
      await page.keyboard.type('\n// edited in the browser');
      await files.locator('.fe-status[data-state="dirty"]').waitFor();
      problems.push(...await layout(page, size, 'editor'));
      // Unsaved edits survive a switch to another tab and back.
      await page.locator(`#tab-${chat.id}`).click();
      await page.locator('.pane-chat:not([hidden])').waitFor();
      await page.locator('.tab-main', { has: page.locator('.tab-name', { hasText: /^Files$/ }) }).click();
      await files.locator('.fe-status[data-state="dirty"]').waitFor();
      assert.match(await files.locator('.cm-content').innerText(), /edited in the browser/);
      await files.locator('.fe-save').click();
      await files.locator('.fe-status', { hasText: /^Saved at/ }).waitFor();
      assert.equal(await readFile(path.join(dir, 'src/main.go'), 'utf8'), 'package main\n\nfunc main() {}\n\n// edited in the browser');

      // The agent changes the file while it is being edited: the save is refused, clearly.
      await files.locator('.cm-content').click();
      await page.keyboard.press('Control+End');
      await page.keyboard.type('\n// mine');
      await files.locator('.fe-status[data-state="dirty"]').waitFor();
      await writeFile(path.join(dir, 'src/main.go'), 'package main // changed by the agent\n');
      await files.locator('.fe-save').click();
      const conflict = files.locator('.fe-conflict:not([hidden])');
      await conflict.waitFor();
      assert.match(await conflict.innerText(), /changed on disk after you opened it/);
      assert.equal(await readFile(path.join(dir, 'src/main.go'), 'utf8'), 'package main // changed by the agent\n', 'nothing was overwritten');
      problems.push(...await layout(page, size, 'conflict'));
      await conflict.locator('.fe-overwrite').click();
      await files.locator('.fe-status', { hasText: /^Saved at/ }).waitFor();
      assert.match(await readFile(path.join(dir, 'src/main.go'), 'utf8'), /\/\/ mine$/);
      await files.locator('.fe-done').click();
      await files.locator('.fv-edit').waitFor();

      // Upload two files by a drop onto the src folder, then one that exists.
      await toTree();
      const drop = async (names) => {
        const dt = await page.evaluateHandle((ns) => {
          const d = new DataTransfer();
          for (const n of ns) d.items.add(new File([`content of ${n}`], n, { type: 'text/plain' }));
          return d;
        }, names);
        for (const type of ['dragenter', 'dragover', 'drop']) await row('src').dispatchEvent(type, { dataTransfer: dt });
      };
      await drop(['one.txt', 'two.txt']);
      await files.locator('.fu-row[data-name="one.txt"][data-state="done"]').waitFor();
      await files.locator('.fu-row[data-name="two.txt"][data-state="done"]').waitFor();
      assert.equal(await readFile(path.join(dir, 'src/two.txt'), 'utf8'), 'content of two.txt');
      await row('src/one.txt').waitFor();
      problems.push(...await layout(page, size, 'uploaded'));
      await drop(['one.txt']);
      const ask = page.locator('dialog[open]');
      await ask.getByText('A file named “one.txt” is already in src.').waitFor();
      problems.push(...await layout(page, size, 'replace-dialog'));
      await ask.getByRole('button', { name: 'Replace' }).click();
      await page.waitForFunction(() => [...document.querySelectorAll('.pane-files .fu-row[data-name="one.txt"]')].filter((r) => r.dataset.state === 'done').length === 2);

      // Download the src folder as a zip, its size shown first.
      await row('src').click(); // selects it (and closes it)
      await files.locator('.fp-download').click();
      const dlg = page.locator('dialog[open]');
      await dlg.locator('.fs-size[data-ready]').waitFor();
      assert.match(await dlg.locator('.fs-size').innerText(), /^4 files, \d+ B before compression\. The \.git folder is left out\.$/);
      problems.push(...await layout(page, size, 'download-dialog'));
      const [download] = await Promise.all([page.waitForEvent('download'), dlg.getByRole('button', { name: 'Download' }).click()]);
      assert.equal(download.suggestedFilename(), 'src.zip');
      const zip = await readFile(await download.path());
      assert.equal(zip.subarray(0, 4).toString('binary'), 'PK\x03\x04');
      assert.ok(zip.includes('src/main.go') && zip.includes('src/two.txt'), 'the zip holds the folder');

      // Delete: the dialog says what git can restore, and what it cannot.
      await row('src').click(); // open it again
      await row('src/main.go').click();
      await files.locator('.fv-delete').click();
      let confirm = page.locator('dialog[open]');
      await confirm.getByText('Git can restore it as last committed or staged', { exact: false }).waitFor();
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      await toTree();
      await row('notes.txt').click();
      await files.locator('.fv-delete').click();
      confirm = page.locator('dialog[open]');
      await confirm.getByText('Git does not track it: once deleted, it cannot be brought back.').waitFor();
      problems.push(...await layout(page, size, 'delete-dialog'));
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await row('notes.txt').waitFor({ state: 'detached' });
      await page.locator('.pane-files:not([hidden])[data-view="tree"]').waitFor(); // a phone goes back to the tree
      await assert.rejects(stat(path.join(dir, 'notes.txt')), /ENOENT/);
      await assert.doesNotReject(stat(path.join(dir, 'src/main.go')));

      // Light and dark: the pane follows the theme, both ways.
      const bg = () => files.evaluate((el) => getComputedStyle(el).backgroundColor);
      const colour = { dark: 'rgb(11, 13, 18)', light: 'rgb(255, 255, 255)' };
      assert.equal(await bg(), colour[opts.colorScheme]);
      const other = opts.colorScheme === 'dark' ? 'light' : 'dark';
      await page.emulateMedia({ colorScheme: other });
      await page.waitForFunction(([sel, want]) => getComputedStyle(document.querySelector(sel)).backgroundColor === want,
        ['.pane-files:not([hidden])', colour[other]]);
      await row('src/main.go').click(); // src is open
      await files.locator('.fv-line').first().waitFor();
      problems.push(...await layout(page, size, `file-${other}`));
      assert.deepEqual(problems, []);
      // The refused save (412) and the upload of a name that exists (409)
      // are answers this test asks for; the browser logs them all the same.
      assert.deepEqual(page.errors.filter((e) => !/status of (412 \(Precondition Failed\)|409 \(Conflict\))/.test(e)), []);
      await page.context().close();
    });
  }
});
