// Edit, MultiEdit and Write as a diff: red/green lines with line numbers and
// the file path as a link to the file in the session's Files tab. Before
// the result comes the numbers count from the snippet; the result's
// structuredPatch (tool_use_result) then gives the file's real ones. A Write
// of a new file shows its content, highlighted. Big diffs start collapsed and
// are built only when opened.
import { h } from '../../../dom';
import { scrollBox } from '../../../scroll-box';
import { highlightLine, langFor } from '../../diff/highlight';
import { isObject, num, str } from '../protocol';
import { hunkLines, lineDiff, splitLines, type DiffLine } from './line-diff';
import { registerTool } from './registry';

/** Lines shown open at most; a longer diff starts collapsed. */
const openLines = 60;

/** The event a file link sends up to the session view (it opens the Files tab on that file). */
export const openFileEvent = 'agentdesk-open-file';

/** The path as a link: a click asks the session view to show the file in its Files tab. */
export function fileLink(path: string): HTMLElement {
  const a = h('a', { class: 'tool-file', href: '#', title: 'Open in the Files tab' }, path);
  a.addEventListener('click', (ev) => {
    ev.preventDefault();
    a.dispatchEvent(new CustomEvent(openFileEvent, { bubbles: true, detail: { path } }));
  });
  return a;
}

const signWords: Record<string, string> = { add: 'added', del: 'removed', ctx: '' };

/** The rows of a diff; code is highlighted by the file's language when known. */
function diffRows(lines: DiffLine[], path: string): HTMLElement {
  const lang = langFor(path);
  const box = scrollBox(h('div', { class: 'tool-diff', role: 'table', 'aria-label': `Changes to ${path}` }), '');
  for (const l of lines) {
    const text = h('span', { class: 'dl-text' });
    if (lang !== null) text.innerHTML = highlightLine(l.text, lang); // escaped by highlightLine
    else text.textContent = l.text;
    const kind = l.kind === '+' ? 'add' : l.kind === '-' ? 'del' : 'ctx';
    text.setAttribute('role', 'cell');
    box.append(h('div', { class: 'dl', 'data-kind': kind, role: 'row' },
      h('span', { class: 'dl-num', role: 'cell' }, l.old === null ? '' : String(l.old)),
      h('span', { class: 'dl-num', role: 'cell' }, l.new === null ? '' : String(l.new)),
      h('span', { class: 'dl-sign', role: 'cell' }, h('span', { 'aria-hidden': 'true' }, l.kind), h('span', { class: 'tool-sr' }, signWords[kind])),
      text));
  }
  return box;
}

/** A diff view: open when short, else a closed <details> that builds its rows when first opened. */
function diffView(lines: DiffLine[], path: string): HTMLElement {
  const added = lines.filter((l) => l.kind === '+').length;
  const removed = lines.filter((l) => l.kind === '-').length;
  const stats = h('span', { class: 'tool-stats' },
    h('span', { class: 'st-add' }, `+${added}`), ' ', h('span', { class: 'st-del' }, `−${removed}`));
  if (lines.length <= openLines) return h('div', { class: 'tool-diff-wrap' }, stats, diffRows(lines, path));
  const details = h('details', { class: 'tool-diff-wrap' }, h('summary', null, stats, ` · ${lines.length} lines`));
  details.addEventListener('toggle', () => {
    if (details.open && details.querySelector('.tool-diff') === null) details.append(diffRows(lines, path));
  });
  return details;
}

function editLines(input: unknown): DiffLine[] {
  if (isObject(input) && Array.isArray(input.edits)) {
    // MultiEdit: each edit's lines in turn.
    return input.edits.flatMap((e: unknown) => lineDiff(str(e, 'old_string'), str(e, 'new_string')));
  }
  return lineDiff(str(input, 'old_string'), str(input, 'new_string'));
}

/** The lines of a tool_use_result's structuredPatch, or null when it has none. */
function patchLines(meta: unknown): DiffLine[] | null {
  if (!isObject(meta) || !Array.isArray(meta.structuredPatch) || meta.structuredPatch.length === 0) return null;
  return meta.structuredPatch.flatMap((hunk: unknown) => {
    const lines = isObject(hunk) && Array.isArray(hunk.lines) ? hunk.lines.filter((l): l is string => typeof l === 'string') : [];
    return hunkLines(lines, num(hunk, 'oldStart') ?? 1, num(hunk, 'newStart') ?? 1);
  });
}

/**
 * The card's body: the file link now, the view from the input a microtask
 * later, unless the result's patch came first. History renders a call and
 * its result in the same slice, so the snippet diff is then never built.
 */
function body(path: string, view: () => HTMLElement): HTMLElement {
  const el = h('div', { class: 'tool-edit' }, h('div', { class: 'tool-file-row' }, fileLink(path)));
  queueMicrotask(() => {
    if (el.dataset.patched === undefined) el.append(view());
  });
  return el;
}

function update(el: HTMLElement, input: unknown, meta: unknown): void {
  const lines = patchLines(meta);
  if (lines === null) return;
  el.dataset.patched = '';
  el.querySelector('.tool-diff-wrap')?.remove();
  el.append(diffView(lines, str(input, 'file_path')));
}

registerTool(['Edit', 'MultiEdit'], {
  body: (input) => body(str(input, 'file_path'), () => diffView(editLines(input), str(input, 'file_path'))),
  update,
  quietResult: true,
});

registerTool(['Write'], {
  body: (input) => {
    const path = str(input, 'file_path');
    return body(path, () => {
      const lines = splitLines(str(input, 'content')).map((text, i): DiffLine => ({ kind: '+', text, old: null, new: i + 1 }));
      const view = diffView(lines, path);
      view.classList.add('tool-newfile');
      return view;
    });
  },
  update,
  quietResult: true,
});
