// The rows of the "Stage & commit" lists: a file with its buttons, and when
// expanded its hunks, each with its own stage/unstage button. Actions are
// data-act attributes the panel handles by delegation.
import { h } from '../../dom';
import type { IndexFile, Side } from './git-model';
import { hunksOf, statusLetter, type DiffLine, type Hunk } from './model';

/** Lines drawn per hunk; the rest is counted (the full diff is below). */
const hunkLineLimit = 200;

const opClass: Record<string, string> = { ' ': 'dl-ctx', '+': 'dl-add', '-': 'dl-del' };

/** Whether the file can be staged by hunk: a plain edit with hunks shown. */
function byHunk(f: IndexFile): boolean {
  return f.status === 'modified' && !f.binary && f.truncated !== true && hunksOf(f).length > 0;
}

export function fileRow(side: Side, f: IndexFile, open: boolean): HTMLElement {
  const move = side === 'unstaged' ? 'Stage' : 'Unstage';
  const name = h('button', { type: 'button', class: 'gp-name', 'data-act': 'expand', 'aria-expanded': String(open), title: f.oldPath ? `${f.oldPath} → ${f.path}` : f.path },
    h('span', { class: 'gp-status', 'data-status': f.status }, statusLetter(f.status)),
    h('span', { class: 'gp-path' }, f.path),
    h('span', { class: 'gp-counts' }, f.binary ? 'bin' : `+${f.additions} −${f.deletions}`));
  const btns = h('span', { class: 'gp-btns' },
    h('button', { type: 'button', class: 'btn btn-small', 'data-act': 'move', 'aria-label': `${move} ${f.path}` }, move),
    side === 'unstaged' ? h('button', { type: 'button', class: 'btn btn-small btn-danger-text', 'data-act': 'discard', 'aria-label': `Discard ${f.path}` }, 'Discard') : null);
  const row = h('div', { class: 'gp-file', 'data-side': side, 'data-path': f.path }, h('div', { class: 'gp-row' }, name, btns));
  if (open) row.append(hunksEl(side, f));
  return row;
}

function hunksEl(side: Side, f: IndexFile): HTMLElement {
  const box = h('div', { class: 'gp-hunks' });
  if (!byHunk(f)) {
    const why = f.status === 'untracked' ? 'An untracked file' : f.binary ? 'A binary file' : f.truncated === true ? 'A large diff' : `A file ${f.status}`;
    box.append(h('p', { class: 'gp-empty' }, `${why} is staged whole.`));
    return box;
  }
  const verb = side === 'unstaged' ? 'Stage hunk' : 'Unstage hunk';
  hunksOf(f).forEach((hk, i) => {
    const id = f.hunkIds[i];
    box.append(h('div', { class: 'gp-hunk' },
      h('div', { class: 'gp-hunk-head' },
        h('code', null, `@@ -${hk.oldStart},${hk.oldLines} +${hk.newStart},${hk.newLines} @@ ${hk.header}`),
        id === undefined ? null : h('button', { type: 'button', class: 'btn btn-small', 'data-act': 'move', 'data-hunk': id, 'aria-label': `${verb} ${i + 1} of ${f.path}` }, verb)),
      linesEl(hk)));
  });
  return box;
}

function linesEl(hk: Hunk): HTMLElement {
  const pre = h('pre', { class: 'gp-lines' });
  hk.lines.slice(0, hunkLineLimit).forEach((l: DiffLine) => {
    pre.append(h('span', { class: opClass[l.op] ?? 'dl-ctx' }, `${l.op}${l.text}\n`));
  });
  const rest = hk.lines.length - hunkLineLimit;
  if (rest > 0) pre.append(h('span', { class: 'gp-more' }, `… ${rest} more lines`));
  return pre;
}
