// Browser end-to-end of the git-diff pane on a real git repository: a clean
// tree says "No changes", edits made on disk show up live, an invalid base is
// refused next to the selector while the diff stays, set-base to an older
// commit shows what was committed since, and a 1,000-file diff is built
// lazily, keeping collapse state and scroll position across live updates.
// The pane's pure helpers (model.ts, highlight.ts) are unit-tested first.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import ts from 'typescript';
import { launchBrowser, newPage } from './browser.mjs';
import { AgentdeskServer } from './server.mjs';

async function load(rel) {
  const src = await readFile(new URL(`../frontend/src/${rel}`, import.meta.url), 'utf8');
  const js = ts.transpileModule(src, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
  return import(`data:text/javascript;base64,${Buffer.from(js).toString('base64')}`);
}

const model = await load('panes/diff/model.ts');
const hl = await load('panes/diff/highlight.ts');

const hunk = (oldStart, oldLines, newStart, newLines, lines = []) => ({ oldStart, oldLines, newStart, newLines, header: '', lines });

describe('diff pane helpers', () => {
  test('hidden unchanged lines before each hunk', () => {
    const cases = [
      { name: 'first hunk at line 1', hunks: [hunk(1, 3, 1, 4)], i: 0, want: 0 },
      { name: 'first hunk further down', hunks: [hunk(10, 7, 10, 8)], i: 0, want: 9 },
      { name: 'between two hunks', hunks: [hunk(1, 3, 1, 4), hunk(10, 7, 11, 7)], i: 1, want: 6 },
      { name: 'pure insertion after line 5', hunks: [hunk(5, 0, 6, 2)], i: 0, want: 5 },
      { name: 'after a pure insertion', hunks: [hunk(5, 0, 6, 2), hunk(9, 1, 12, 1)], i: 1, want: 3 },
      { name: 'no such hunk', hunks: [], i: 0, want: 0 },
    ];
    for (const c of cases) assert.equal(model.hiddenBefore(c.hunks, c.i), c.want, c.name);
  });

  test('shape key and content signature tell changed files apart', () => {
    const file = (text, adds = 1) => ({ path: 'a.go', status: 'modified', binary: false, additions: adds, deletions: 0,
      hunks: [hunk(1, 1, 1, 2, [{ op: ' ', text: 'x' }, { op: '+', text }])] });
    assert.equal(model.shapeKey(file('a')), model.shapeKey(file('b')), 'same counts, same shape');
    assert.notEqual(model.contentSig(file('a')), model.contentSig(file('b')), 'an edited line changes the signature');
    assert.equal(model.contentSig(file('a')), model.contentSig(file('a')));
    assert.notEqual(model.shapeKey(file('a', 1)), model.shapeKey(file('a', 2)));
    assert.equal(model.displayPath({ path: 'b', oldPath: 'a' }), 'a → b');
    assert.deepEqual(model.totals([file('a'), file('b', 3)]), { files: 2, additions: 4, deletions: 0 });
  });

  test('highlighting escapes HTML and marks tokens', () => {
    const js = hl.langFor('src/x.ts');
    const cases = [
      { lang: js, text: 'const s = "<b>" // & done', want: '<span class="tk-k">const</span> s = <span class="tk-s">&quot;&lt;b&gt;&quot;</span> <span class="tk-c">// &amp; done</span>' },
      { lang: js, text: '<img src=x onerror=alert(1)>', want: '&lt;img src=x onerror=alert(<span class="tk-n">1</span>)&gt;' },
      { lang: hl.langFor('main.py'), text: 'return 42 # it\'s', want: '<span class="tk-k">return</span> <span class="tk-n">42</span> <span class="tk-c"># it\'s</span>' },
      { lang: hl.langFor('lib.rs'), text: "fn f<'a>(x: &'a str)", want: "<span class=\"tk-k\">fn</span> f&lt;'a&gt;(x: &amp;'a str)" },
    ];
    for (const c of cases) assert.equal(hl.highlightLine(c.text, c.lang), c.want, c.text);
    assert.equal(hl.langFor('README'), null);
    assert.equal(hl.langFor('Makefile') !== null, true);
    assert.equal(hl.escapeHtml('a"<&>'), 'a&quot;&lt;&amp;&gt;');
  });
});

const git = (cwd, ...args) =>
  execFileSync('git', ['-c', 'user.name=e2e', '-c', 'user.email=e2e@example.invalid', '-c', 'commit.gpgsign=false', ...args], {
    cwd, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: cwd, GIT_CONFIG_NOSYSTEM: '1' },
  }).trim();

const lines = (n, word) => Array.from({ length: n }, (_, i) => `${word} ${i + 1}`).join('\n') + '\n';

describe('git-diff pane in a browser', { timeout: 180_000 }, () => {
  let server;
  let browser;
  let page;
  let repo;
  let firstSha;
  const pane = () => page.locator('.pane-diff:not([hidden])');
  const row = (p) => pane().locator(`.fl-row[data-path="${p}"]`);
  const section = (p) => pane().locator(`.df-section[data-path="${p}"]`);

  before(async () => {
    server = await AgentdeskServer.start();
    browser = await launchBrowser();
    repo = await server.tempDir('repo-');
    git(repo, 'init', '-q', '-b', 'main');
    await writeFile(path.join(repo, 'a.txt'), lines(40, 'line'));
    await writeFile(path.join(repo, 'main.go'), 'package main\n\nfunc main() {}\n');
    git(repo, 'add', '.');
    git(repo, 'commit', '-q', '-m', 'first');
    firstSha = git(repo, 'rev-parse', 'HEAD');
  });

  after(async () => {
    await browser?.close();
    await server?.dispose();
  });

  test('a clean work tree says "No changes"', async () => {
    page = await newPage(browser);
    await page.goto(`${server.url}/?token=${server.token}`);
    await page.locator('.conn[data-state="open"]').waitFor();
    await page.keyboard.press('Alt+N');
    await page.locator('#ns-cwd').fill(repo);
    await page.locator('#ns-title').fill('diff e2e');
    await page.locator('#ns-agent').selectOption('none');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.locator('.session-heading', { hasText: 'diff e2e' }).waitFor();

    await page.locator('.tab[data-kind="git-diff"] .tab-main').click();
    await pane().locator('.dd-message', { hasText: 'No changes against' }).waitFor();
    await pane().locator('.dd-indicator', { hasText: /updated \d\d:\d\d:\d\d/ }).waitFor();
    assert.match(await pane().locator('.dd-shas').textContent(), new RegExp(`base ${firstSha.slice(0, 7)} → head ${firstSha.slice(0, 7)}`));
    assert.equal(await pane().locator('.dd-base-input').getAttribute('placeholder'), 'default (merge base)');
  });

  test('edits made on disk show up live', async () => {
    const a = lines(40, 'line').replace('line 20\n', 'line twenty\n') + 'appended\n';
    await writeFile(path.join(repo, 'a.txt'), a);
    await writeFile(path.join(repo, 'new.txt'), 'brand new\nsecond\n');
    await row('a.txt').waitFor();
    await row('new.txt').waitFor();
    assert.equal(await row('a.txt').locator('.fl-status').textContent(), 'M');
    assert.equal(await row('new.txt').locator('.fl-status').textContent(), 'U');
    await section('new.txt').locator('.dl-add', { hasText: 'brand new' }).waitFor();
    await section('a.txt').locator('.dl-add', { hasText: 'line twenty' }).waitFor();
    await section('a.txt').locator('.dl-del', { hasText: 'line 20' }).waitFor();
    await section('a.txt').locator('.dd-gap', { hasText: '16 unchanged lines not shown' }).waitFor();
    assert.match(await pane().locator('.dd-totals').textContent(), /^2 files, \+4 −1$/);
    assert.equal(await pane().locator('.dd-message').isVisible(), false);
  });

  test('an invalid base is refused next to the selector and the diff stays', async () => {
    const input = pane().locator('.dd-base-input');
    await input.fill('no-such-ref');
    await input.press('Enter');
    await pane().locator('.dd-base-error', { hasText: /./ }).waitFor();
    assert.equal(await input.getAttribute('aria-invalid'), 'true');
    assert.equal(await pane().locator('.fl-row').count(), 2, 'the old diff stays');
    await section('new.txt').locator('.dl-add', { hasText: 'brand new' }).waitFor();
    await input.press('Escape');
    assert.equal(await pane().locator('.dd-base-error').textContent(), '');
  });

  test('set-base to an older commit shows what was committed since; Reset goes back', async () => {
    await writeFile(path.join(repo, 'committed.txt'), 'in the second commit\n');
    git(repo, 'add', 'committed.txt');
    git(repo, 'commit', '-q', '-m', 'second');
    const input = pane().locator('.dd-base-input');
    await input.fill('HEAD');
    await input.press('Enter');
    await row('committed.txt').waitFor({ state: 'detached' });
    await row('a.txt').waitFor();

    await input.fill(firstSha);
    await input.press('Enter');
    await row('committed.txt').waitFor();
    assert.equal(await row('committed.txt').locator('.fl-status').textContent(), 'A');
    await section('committed.txt').locator('.dl-add', { hasText: 'in the second commit' }).waitFor();
    assert.equal(await pane().locator('.dd-base-error').textContent(), '');
    const wid = await pane().getAttribute('data-worker-id');
    const sid = new URL(page.url()).pathname.split('/')[2];
    const worker = async () => (await fetch(`${server.url}/api/sessions/${sid}/workers/${wid}`, { headers: { Authorization: `Bearer ${server.token}` } })).json();
    assert.equal((await worker()).base, firstSha);

    await pane().getByRole('button', { name: 'Reset to default' }).click();
    await pane().locator('.dd-indicator', { hasText: /updated/ }).waitFor();
    assert.equal(await input.inputValue(), '');
    await waitFor(async () => ((await worker()).base ?? '') === '', 'the worker keeps the default base');
  });

  test('a file too large for the live diff is shown in full on demand', async () => {
    await writeFile(path.join(repo, 'big.txt'), lines(6000, 'row'));
    await row('big.txt').waitFor();
    const show = section('big.txt').getByRole('button', { name: 'Show diff' });
    await section('big.txt').locator('.df-note', { hasText: 'too large' }).waitFor();
    await show.click();
    await section('big.txt').locator('.dl-add', { hasText: 'row 2000' }).waitFor();
    assert.equal(await section('big.txt').locator('.dl-add', { hasText: 'row 2001' }).count(), 0, 'long files are drawn in parts');
    await section('big.txt').getByRole('button', { name: 'Show 4000 more lines' }).click();
    await section('big.txt').locator('.dl-add', { hasText: 'row 6000' }).waitFor();
    await rm(path.join(repo, 'big.txt'));
    await row('big.txt').waitFor({ state: 'detached' });
  });

  test('1,000 files are built lazily; collapse and scroll survive live updates', async () => {
    await mkdir(path.join(repo, 'many'));
    for (let i = 0; i < 1000; i++) await writeFile(path.join(repo, 'many', `f${String(i).padStart(4, '0')}.txt`), lines(5, `file ${i}`));
    await row('many/f0999.txt').waitFor();
    const rows = await pane().locator('.fl-row').count();
    assert.ok(rows >= 1002, `the list holds every file (${rows})`);
    const built = await pane().locator('.df-head').count();
    assert.ok(built > 0 && built < 100, `only sections near the viewport are built (${built})`);

    // Collapse a.txt, then go to a file in the middle by the keyboard-driven list.
    await section('a.txt').locator('.df-toggle').click();
    assert.equal(await section('a.txt').getAttribute('class'), 'df-section collapsed');
    await row('many/f0500.txt').click();
    await section('many/f0500.txt').locator('.dl-add', { hasText: 'file 500 1' }).waitFor();
    await pane().locator('.dd-files').press('j');
    await section('many/f0501.txt').locator('.df-head').waitFor();
    assert.equal(await pane().locator('.fl-row[aria-selected="true"]').getAttribute('data-path'), 'many/f0501.txt');
    const top = () => section('many/f0501.txt').evaluate((el) => el.getBoundingClientRect().top);
    const before = await top();

    // Changes above the viewport (a new file, an edit): the file in view must not move.
    await writeFile(path.join(repo, 'aa.txt'), lines(30, 'inserted'));
    await writeFile(path.join(repo, 'a.txt'), lines(40, 'line') + 'appended\nmore\nand more\n');
    await pane().locator('.fl-row[data-path="a.txt"] .n-add', { hasText: '+3' }).waitFor();
    await row('aa.txt').waitFor();
    assert.ok(Math.abs((await top()) - before) <= 2, `the visible file stays put (${before} → ${await top()})`);
    await row('a.txt').click();
    await section('a.txt').locator('.df-head').waitFor();
    assert.equal(await section('a.txt').getAttribute('class'), 'df-section collapsed', 'collapse state survives the update');
    assert.equal(await section('a.txt').locator('.df-body').isVisible(), false);

    // Another session and back: the diff is where it was.
    await row('many/f0501.txt').click();
    const shown = await top();
    const other = await fetch(`${server.url}/api/sessions`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${server.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ cwd: await server.tempDir(), title: 'elsewhere', agent: 'none' }),
    });
    assert.equal(other.status, 201);
    await page.locator('.session-title', { hasText: 'elsewhere' }).click();
    await page.locator('.session-heading', { hasText: 'elsewhere' }).waitFor();
    await pane().waitFor({ state: 'hidden' });
    await page.locator('.session-title', { hasText: 'diff e2e' }).click();
    await section('many/f0501.txt').locator('.df-head').waitFor();
    await waitFor(async () => Math.abs((await top()) - shown) <= 2, `the diff keeps its place across sessions (${shown} → ${await top()})`);

    await pane().getByRole('button', { name: 'Collapse all' }).click();
    assert.ok(await pane().locator('.df-section.collapsed .df-head').count() > 0);
    assert.equal(await pane().locator('.df-section:not(.collapsed) .df-head').count(), 0, 'every built file is collapsed');
    await pane().getByRole('button', { name: 'Expand all' }).click();
    assert.equal(await pane().locator('.df-section.collapsed').count(), 0);
    assert.deepEqual(page.errors, [], 'no console errors');
  });
});

/** Polls cond until true, at most 15 s. */
async function waitFor(cond, what) {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (await cond()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out: ${what}`);
}
