// A line diff of two small texts (an Edit's old and new strings): the longest
// common subsequence of lines, which is all an edit of a few dozen lines
// needs. No library: the npm `diff` package would add ~30 KB for the same
// result here. Inputs too large for the quadratic table are shown as all
// removed then all added.

export interface DiffLine {
  kind: ' ' | '-' | '+';
  text: string;
  /** Line numbers in the old and new text (1-based), null on the side the line is not on. */
  old: number | null;
  new: number | null;
}

/** Cells of the LCS table at most: beyond it, no alignment. */
const maxCells = 1_000_000;

/** Splits text into lines; a final newline ends the last line rather than starting an empty one. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** The diff of a and b, numbered from oldStart and newStart. */
export function lineDiff(a: string, b: string, oldStart = 1, newStart = 1): DiffLine[] {
  const x = splitLines(a);
  const y = splitLines(b);
  const ops = x.length * y.length > maxCells ? naive(x.length, y.length) : lcsOps(x, y);
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  for (const op of ops) {
    if (op === ' ') out.push({ kind: ' ', text: x[i] ?? '', old: oldStart + i++, new: newStart + j++ });
    else if (op === '-') out.push({ kind: '-', text: x[i] ?? '', old: oldStart + i++, new: null });
    else out.push({ kind: '+', text: y[j] ?? '', old: null, new: newStart + j++ });
  }
  return out;
}

function naive(n: number, m: number): string[] {
  return [...Array<string>(n).fill('-'), ...Array<string>(m).fill('+')];
}

/** Edit operations from the LCS table: removals before additions within a change. */
function lcsOps(x: string[], y: string[]): string[] {
  const n = x.length;
  const m = y.length;
  // t[i][j]: LCS length of x[i:] and y[j:], in one flat array.
  const t = new Uint32Array((n + 1) * (m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      t[i * (m + 1) + j] = x[i] === y[j]
        ? (t[(i + 1) * (m + 1) + j + 1] ?? 0) + 1
        : Math.max(t[(i + 1) * (m + 1) + j] ?? 0, t[i * (m + 1) + j + 1] ?? 0);
    }
  }
  const ops: string[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && x[i] === y[j]) {
      ops.push(' ');
      i++;
      j++;
    } else if (j >= m || (i < n && (t[(i + 1) * (m + 1) + j] ?? 0) >= (t[i * (m + 1) + j + 1] ?? 0))) {
      ops.push('-');
      i++;
    } else {
      ops.push('+');
      j++;
    }
  }
  return ops;
}

/** The lines of a structuredPatch hunk (" ctx", "-old", "+new"), numbered. */
export function hunkLines(lines: string[], oldStart: number, newStart: number): DiffLine[] {
  const out: DiffLine[] = [];
  let o = oldStart;
  let n = newStart;
  for (const l of lines) {
    if (l.startsWith('\\')) continue; // "\ No newline at end of file"
    const kind = l[0] === '-' || l[0] === '+' ? l[0] : ' ';
    const text = l.slice(1);
    if (kind === '-') out.push({ kind, text, old: o++, new: null });
    else if (kind === '+') out.push({ kind, text, old: null, new: n++ });
    else out.push({ kind, text, old: o++, new: n++ });
  }
  return out;
}
