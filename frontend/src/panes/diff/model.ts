// The Diff object of a git-diff worker (API.md "git-diff workers", plus our
// extensions truncated, oldMode/newMode and noEol) and the pure helpers the
// view needs: change keys, totals, hidden-line counts between hunks.

export type FileStatus = 'modified' | 'added' | 'deleted' | 'renamed' | 'untracked';

export interface DiffLine {
  op: ' ' | '+' | '-';
  text: string;
  oldNo?: number;
  newNo?: number;
  noEol?: boolean;
}

export interface Hunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  header: string;
  lines: DiffLine[];
}

export interface DiffFile {
  path: string;
  oldPath?: string;
  status: FileStatus;
  binary: boolean;
  additions: number;
  deletions: number;
  hunks: Hunk[] | null;
  /** The server left the hunks out (too large); GET .../diff?path= has them. */
  truncated?: boolean;
  oldMode?: string;
  newMode?: string;
}

export interface Diff {
  base: string;
  head: string | null;
  files: DiffFile[];
}

/** Frames of the git-diff worker socket (server to client). */
export type DiffFrame = ({ type: 'diff' } & Diff) | { type: 'error'; code: string; message: string };

const letters: Record<FileStatus, string> = { modified: 'M', added: 'A', deleted: 'D', renamed: 'R', untracked: 'U' };

/** One-letter status, as git prints it (U for untracked). */
export function statusLetter(s: FileStatus): string {
  return letters[s] ?? '?';
}

export function hunksOf(f: DiffFile): Hunk[] {
  return f.hunks ?? [];
}

/**
 * A cheap key that changes whenever the file's header or shape changes:
 * counts, status, modes and each hunk's range, header and line count. Two
 * files with equal keys may still differ in a line's text (an edit that
 * keeps the counts); contentSig tells those apart, and is only computed for
 * files whose DOM is built.
 */
export function shapeKey(f: DiffFile): string {
  let k = `${f.path}\0${f.oldPath ?? ''}\0${f.status}\0${f.binary}\0${f.additions}\0${f.deletions}\0${f.truncated === true}\0${f.oldMode ?? ''}\0${f.newMode ?? ''}`;
  for (const h of hunksOf(f)) k += `\0${h.oldStart},${h.oldLines},${h.newStart},${h.newLines},${h.lines.length},${h.header}`;
  return k;
}

/** A 32-bit FNV-1a hash over every line's op and text: equal content, equal sig. */
export function contentSig(f: DiffFile): number {
  let x = 0x811c9dc5;
  for (const h of hunksOf(f)) {
    for (const l of h.lines) {
      const s = l.op + l.text + (l.noEol === true ? '\\' : '\n');
      for (let i = 0; i < s.length; i++) {
        x ^= s.charCodeAt(i);
        x = Math.imul(x, 0x01000193);
      }
    }
  }
  return x >>> 0;
}

export interface Totals {
  files: number;
  additions: number;
  deletions: number;
}

export function totals(files: readonly DiffFile[]): Totals {
  let additions = 0;
  let deletions = 0;
  for (const f of files) {
    additions += f.additions;
    deletions += f.deletions;
  }
  return { files: files.length, additions, deletions };
}

/** Lines of the hunks (what the view draws, one row each, before any cap). */
export function lineCount(f: DiffFile): number {
  let n = 0;
  for (const h of hunksOf(f)) n += h.lines.length;
  return n;
}

/** First and last old-side line a hunk covers (git's start is the line before when it covers none). */
function oldRange(h: Hunk): [number, number] {
  if (h.oldLines === 0) return [h.oldStart + 1, h.oldStart];
  return [h.oldStart, h.oldStart + h.oldLines - 1];
}

/**
 * Unchanged lines the diff does not show before hunk i (between hunk i-1 and
 * i, or above the first). Only meaningful when the file existed at the base.
 */
export function hiddenBefore(hunks: readonly Hunk[], i: number): number {
  const h = hunks[i];
  if (h === undefined) return 0;
  const start = oldRange(h)[0];
  const prev = hunks[i - 1];
  const end = prev === undefined ? 0 : oldRange(prev)[1];
  return Math.max(0, start - end - 1);
}

/** "7c9e2f1" from a full sha. */
export function shortSha(sha: string | null | undefined): string {
  return sha ? sha.slice(0, 7) : '';
}

/** "dir/" and "name" of a path, for a dimmed directory before the name. */
export function splitPath(path: string): [string, string] {
  const i = path.lastIndexOf('/');
  return i < 0 ? ['', path] : [path.slice(0, i + 1), path.slice(i + 1)];
}

/** The file's name as shown: "old → new" for renames. */
export function displayPath(f: DiffFile): string {
  return f.oldPath !== undefined && f.oldPath !== '' && f.oldPath !== f.path ? `${f.oldPath} → ${f.path}` : f.path;
}
