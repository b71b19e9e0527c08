// The body of one file section as an HTML string (set with innerHTML once:
// far cheaper than thousands of createElement calls), and its height
// estimate for the placeholder shown until the section is built. Every row
// has the same fixed height (ROW_PX, matched by diff.css), so the estimate is
// exact for hunks; notes and the section header have fixed heights too.
import { escapeHtml, highlightLine, langFor } from './highlight';
import { hiddenBefore, hunksOf, lineCount, type DiffFile, type DiffLine } from './model';

/** True where controls are touch-sized (styles/phone.css): the file headers are 44px there. */
const touchSized = typeof matchMedia === 'function' && matchMedia('(pointer: coarse), (max-width: 768px)').matches;

/** Keep in step with diff.css (.dd-row, .df-head, .df-note, .df-section margin). */
export const ROW_PX = 18;
export const HEAD_PX = touchSized ? 47 : 32;
export const NOTE_PX = 38;
export const SECTION_GAP_PX = 8;
/** Rows drawn per file before a "show more" row (a 30,000-line file would stall the page). */
export const ROW_LIMIT = 2000;
/** Longest line that gets highlighted, and most highlighted lines per file. */
const highlightMaxChars = 400;
const highlightMaxLines = 2000;

const opClass: Record<string, string> = { ' ': 'dl-ctx', '+': 'dl-add', '-': 'dl-del' };

/** Whether unchanged lines outside the hunks exist (the file was there at the base). */
function hasOldSide(f: DiffFile): boolean {
  return f.status === 'modified' || f.status === 'renamed' || f.status === 'deleted';
}

/** The note shown instead of hunks, or null when the file has hunks to draw. */
export function noteFor(f: DiffFile): string | null {
  if (f.binary) return 'Binary file not shown.';
  if (f.truncated === true) return 'This diff is too large to show here.';
  if (hunksOf(f).length > 0) return null;
  if (f.oldMode !== undefined && f.oldMode !== f.newMode) return 'Only the file mode changed.';
  if (f.status === 'renamed') return 'Renamed without changes.';
  return 'Empty file.';
}

/** Rows the body draws with a limit of `limit` lines: hunk headers, gaps, lines, a "more" row. */
export function bodyRows(f: DiffFile, limit: number): number {
  let rows = 0;
  let lines = 0;
  const hunks = hunksOf(f);
  for (let i = 0; i < hunks.length; i++) {
    const h = hunks[i]!;
    if (lines >= limit) return rows + 1;
    if (hasOldSide(f) && hiddenBefore(hunks, i) > 0) rows++;
    const take = Math.min(h.lines.length, limit - lines);
    rows += 1 + take;
    lines += take;
    if (take < h.lines.length) return rows + 1;
  }
  return rows;
}

/** Placeholder height of a section before it is built. */
export function estimateHeight(f: DiffFile, collapsed: boolean, limit: number): number {
  if (collapsed) return HEAD_PX + SECTION_GAP_PX;
  const body = noteFor(f) !== null ? NOTE_PX : bodyRows(f, limit) * ROW_PX;
  return HEAD_PX + body + SECTION_GAP_PX;
}

function lineHtml(l: DiffLine, code: string): string {
  const eol = l.noEol === true ? '<span class="dl-noeol" title="No newline at end of file"> ⊘ no newline</span>' : '';
  return `<div class="dd-row ${opClass[l.op] ?? 'dl-ctx'}"><span class="ln" data-n="${l.oldNo ?? ''}"></span><span class="ln" data-n="${l.newNo ?? ''}"></span><span class="lc">${code}${eol}</span></div>`;
}

function gapHtml(n: number): string {
  const what = n === 1 ? 'line' : 'lines';
  return `<div class="dd-row dd-gap">⋯ ${n} unchanged ${what} not shown</div>`;
}

/** The hunks of f as HTML, at most `limit` lines, ending in a "show more" row if cut. */
export function bodyHtml(f: DiffFile, limit: number): string {
  const lang = langFor(f.path);
  const hunks = hunksOf(f);
  const parts: string[] = [];
  let lines = 0;
  let lit = 0;
  for (let i = 0; i < hunks.length; i++) {
    const h = hunks[i]!;
    if (lines >= limit) return parts.join('') + moreHtml(f, lines);
    const gap = hasOldSide(f) ? hiddenBefore(hunks, i) : 0;
    if (gap > 0) parts.push(gapHtml(gap));
    const range = `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`;
    const ctx = h.header !== '' ? ` <span class="dd-hctx">${escapeHtml(h.header)}</span>` : '';
    parts.push(`<div class="dd-row dd-hunk">${range}${ctx}</div>`);
    for (const l of h.lines) {
      if (lines >= limit) return parts.join('') + moreHtml(f, lines);
      let code: string;
      if (lang !== null && lit < highlightMaxLines && l.text.length <= highlightMaxChars) {
        code = highlightLine(l.text, lang);
        lit++;
      } else {
        code = escapeHtml(l.text);
      }
      parts.push(lineHtml(l, code));
      lines++;
    }
  }
  return parts.join('');
}

function moreHtml(f: DiffFile, shown: number): string {
  const rest = lineCount(f) - shown;
  return `<div class="dd-row dd-more"><button type="button" class="btn btn-small" data-action="more">Show ${rest} more ${rest === 1 ? 'line' : 'lines'}</button></div>`;
}
