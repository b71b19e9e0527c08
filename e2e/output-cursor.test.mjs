// Unit tests of the terminal pane's offset bookkeeping (frontend/src/panes/
// output-cursor.ts), transpiled on the fly with the project's TypeScript.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import ts from 'typescript';

async function load(rel) {
  const src = await readFile(new URL(`../frontend/src/${rel}`, import.meta.url), 'utf8');
  const js = ts.transpileModule(src, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
  return import(`data:text/javascript;base64,${Buffer.from(js).toString('base64')}`);
}

const { OutputCursor, parseOutputFrame } = await load('panes/output-cursor.ts');
const { backoffDelay } = await load('ws.ts');

const text = (u8) => Buffer.from(u8).toString();
const bytes = (s) => new Uint8Array(Buffer.from(s));

function frame(offset, s) {
  const buf = new ArrayBuffer(8 + Buffer.byteLength(s));
  new DataView(buf).setBigUint64(0, BigInt(offset), false);
  new Uint8Array(buf, 8).set(bytes(s));
  return buf;
}

test('parseOutputFrame reads the big-endian offset and the payload', () => {
  const f = parseOutputFrame(frame(2 ** 40 + 5, 'abc'));
  assert.equal(f.start, 2 ** 40 + 5);
  assert.equal(text(f.bytes), 'abc');
  assert.equal(parseOutputFrame(new ArrayBuffer(7)), null);
});

test('OutputCursor keeps each byte exactly once', async (t) => {
  const cases = [
    { name: 'in order', frames: [[0, 'ab'], [2, 'cd']], want: 'abcd', next: 4 },
    { name: 'first frame anywhere', frames: [[100, 'xy'], [102, 'z']], want: 'xyz', next: 103 },
    { name: 'replay of seen bytes', frames: [[0, 'abcd'], [0, 'abcd'], [2, 'cd']], want: 'abcd', next: 4 },
    { name: 'overlap keeps the tail', frames: [[0, 'abc'], [1, 'bcde']], want: 'abcde', next: 5 },
    { name: 'gap is written', frames: [[0, 'ab'], [10, 'k']], want: 'abk', next: 11 },
    { name: 'empty frame', frames: [[0, 'ab'], [2, '']], want: 'ab', next: 2 },
  ];
  for (const c of cases) {
    await t.test(c.name, () => {
      const cur = new OutputCursor();
      let got = '';
      for (const [off, s] of c.frames) got += text(cur.accept(off, bytes(s)));
      assert.equal(got, c.want);
      assert.equal(cur.next, c.next);
      assert.equal(cur.query(), `?offset=${c.next}`);
    });
  }
});

test('OutputCursor truncated, history-end and reset', () => {
  const cur = new OutputCursor();
  assert.equal(cur.query(), '', 'no offset before anything was seen');
  assert.equal(cur.historyEnd(0), true);
  assert.equal(cur.next, 0, 'an empty replay still fixes the position');
  cur.truncated(50);
  assert.equal(cur.next, 50);
  cur.truncated(10);
  assert.equal(cur.next, 50, 'truncated never moves back');
  assert.equal(text(cur.accept(50, bytes('hi'))), 'hi');
  assert.equal(cur.historyEnd(52), true);
  assert.equal(cur.historyEnd(60), true);
  assert.equal(cur.historyEnd(10), false, 'a replay ending below what we saw means a new log');
  cur.reset();
  assert.equal(cur.next, null);
});

test('backoffDelay grows, is capped and jittered', () => {
  for (let attempt = 0; attempt < 30; attempt++) {
    const full = Math.min(10_000, 500 * 2 ** attempt);
    for (let i = 0; i < 20; i++) {
      const d = backoffDelay(attempt, 500, 10_000);
      assert.ok(d >= full / 2 && d <= full, `attempt ${attempt}: ${d} outside [${full / 2}, ${full}]`);
    }
  }
});
