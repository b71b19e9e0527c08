// Read, Grep and Glob: what was looked at (path, pattern, where) as labelled
// facts, and how much came back (lines, files, matches) next to the result.
// Files found (Glob, and Grep listing files) are links that open the file
// in the session's Files tab.
import { h } from '../../../dom';
import { num, str } from '../protocol';
import { terminalBlock } from './bash';
import { fileLink } from './edit-diff';
import { registerTool } from './registry';

/** Labelled facts, the empty ones left out. */
function facts(items: [string, string | HTMLElement][]): HTMLElement | null {
  const shown = items.filter(([, v]) => v !== '');
  if (shown.length === 0) return null;
  return h('dl', { class: 'tool-facts' }, ...shown.flatMap(([k, v]) => [h('dt', null, k), h('dd', null, v)]));
}

/** The result's count, e.g. "12 lines", before the text (cut to its first lines, as any output). */
function counted(text: string, unit: string, count: number): HTMLElement {
  const plural = unit.endsWith('h') ? `${unit}es` : `${unit}s`; // match → matches
  const box = h('div', { class: 'tool-count' }, `${count} ${count === 1 ? unit : plural}`);
  if (text !== '') box.append(terminalBlock(text));
  return box;
}

const nonEmpty = (text: string): string[] => text.split('\n').filter((l) => l.trim() !== '');

/** Links shown for a list of found files at most; the rest are counted. */
const maxLinks = 100;

/** The count, then each found file as a link. */
function foundFiles(paths: string[]): HTMLElement {
  const box = h('div', { class: 'tool-count' }, `${paths.length} ${paths.length === 1 ? 'file' : 'files'}`);
  const list = h('ul', { class: 'tool-found' });
  for (const p of paths.slice(0, maxLinks)) list.append(h('li', null, fileLink(p.trim())));
  if (paths.length > maxLinks) list.append(h('li', { class: 'tool-found-more' }, `and ${paths.length - maxLinks} more`));
  box.append(list);
  return box;
}

registerTool(['Read'], {
  body: (input) => {
    const path = str(input, 'file_path');
    const off = num(input, 'offset');
    const lim = num(input, 'limit');
    const range = off !== null || lim !== null ? `from line ${off ?? 1}${lim !== null ? `, ${lim} lines` : ''}` : '';
    return facts([['Path', path === '' ? '' : fileLink(path)], ['Range', range]]);
  },
  result: (_input, _block, text) => (text === '' ? null : counted(text, 'line', nonEmpty(text).length)),
});

registerTool(['Grep'], {
  body: (input) => facts([['Pattern', str(input, 'pattern')], ['In', str(input, 'path')],
    ['Files', str(input, 'glob') || str(input, 'type')], ['Mode', str(input, 'output_mode')]]),
  result: (input, _block, text) => {
    const lines = nonEmpty(text).filter((l) => !/^Found \d+ /.test(l));
    const mode = str(input, 'output_mode');
    if (mode === '' || mode === 'files_with_matches') return foundFiles(lines);
    return counted(text, mode === 'content' ? 'match' : 'file', lines.length);
  },
});

registerTool(['Glob'], {
  body: (input) => facts([['Pattern', str(input, 'pattern')], ['In', str(input, 'path')]]),
  result: (_input, _block, text) => foundFiles(nonEmpty(text).filter((l) => !/^No files found/.test(l) && !/^\(Results are truncated/.test(l))),
});
