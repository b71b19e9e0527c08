// Pure helpers of the Files tab: paths relative to the session's folder
// ("." is the folder itself), sizes and times for people, git marks, and
// what a delete can and cannot be undone with. No DOM here (unit-tested in
// e2e/files.test.mjs).
import type { FsEntry, FsInfo, GitMark } from './api';

/** The path of name in folder dir. */
export function joinPath(dir: string, name: string): string {
  return dir === '.' || dir === '' ? name : `${dir}/${name}`;
}

/** The folder that holds path ("." for a top-level entry). */
export function parentOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '.' : path.slice(0, i);
}

export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** The folders from the top down to path's parent: "a/b/c" → [".", "a", "a/b"]. */
export function ancestors(path: string): string[] {
  const out = ['.'];
  const parts = path.split('/');
  for (let i = 1; i < parts.length; i++) out.push(parts.slice(0, i).join('/'));
  return out;
}

/**
 * A path a tool named (absolute, or relative to the session's folder) as a
 * path of the tree; null when it lies outside the folder.
 */
export function treePath(cwd: string, path: string): string | null {
  let p = path.trim();
  if (p.startsWith('/')) {
    const root = cwd.replace(/\/+$/, '');
    if (p === root) return '.';
    if (!p.startsWith(`${root}/`)) return null;
    p = p.slice(root.length + 1);
  }
  const parts: string[] = [];
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length === 0) return null;
      parts.pop();
      continue;
    }
    parts.push(part);
  }
  return parts.length === 0 ? '.' : parts.join('/');
}

/** 1536 → "1.5 KB" (decimal units, as file managers show). */
export function formatSize(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = bytes;
  let u = -1;
  do {
    v /= 1000;
    u++;
  } while (v >= 1000 && u < units.length - 1);
  return `${v >= 100 ? Math.round(v) : v.toFixed(1)} ${units[u]}`;
}

/** A modification time: the clock today, else the date. */
export function formatTime(iso: string, now = new Date()): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const p = (n: number): string => String(n).padStart(2, '0');
  if (d.toDateString() === now.toDateString()) return `${p(d.getHours())}:${p(d.getMinutes())}`;
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
}

/** The letter and words of a git mark. */
export function markText(m: GitMark | undefined): { letter: string; title: string } | null {
  switch (m) {
    case 'modified': return { letter: 'M', title: 'modified since the last commit' };
    case 'added': return { letter: 'A', title: 'added to the index' };
    case 'untracked': return { letter: 'U', title: 'untracked: git does not have it' };
    case 'ignored': return { letter: 'I', title: 'ignored by git' };
    case 'conflict': return { letter: '!', title: 'merge conflict' };
    case 'changed': return { letter: '•', title: 'has changes inside' };
  }
  return null;
}

/** Whether the tree opens a folder's contents only when asked (node_modules, ignored folders). */
export function isFolded(e: FsEntry): boolean {
  return e.type === 'dir' && e.folded === true;
}

/** Whether the entry is a folder, or a link to a folder inside the tree. */
export function isFolder(e: FsEntry): boolean {
  return e.type === 'dir' || (e.type === 'symlink' && e.points === 'dir');
}

/**
 * What a delete of the entry means for getting it back, in sentences for
 * the confirmation: git can restore what it tracks (as last committed or
 * staged), never what it does not have.
 */
export function deleteConsequences(info: FsInfo): string[] {
  const what = info.type === 'dir' ? 'this folder' : 'this file';
  if (!info.repo) return [`${cap(what)} is not in a git repository: once deleted, it cannot be brought back.`];
  const out: string[] = [];
  if (info.tracked) {
    out.push(info.type === 'dir'
      ? 'The files git tracks in it can be restored with git (git restore), as last committed.'
      : info.git === 'modified' || info.git === 'added'
        ? 'Git can restore it as last committed or staged; the changes made since are lost.'
        : 'Git tracks it: it can be restored with git (git restore).');
  }
  if (info.untracked) {
    out.push(info.type === 'dir'
      ? 'It holds files git does not track (untracked or ignored): those cannot be brought back.'
      : 'Git does not track it: once deleted, it cannot be brought back.');
  }
  if (out.length === 0) out.push(`${cap(what)} is empty and git has nothing of it.`);
  return out;
}

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** A name a person typed for a new entry or a rename: an error sentence, or null when fine. */
export function nameProblem(name: string): string | null {
  const n = name.trim();
  if (n === '') return 'Type a name.';
  if (n.startsWith('/')) return 'Use a path inside the session’s folder, not an absolute one.';
  for (const part of n.split('/')) {
    if (part === '' || part === '.') return 'Remove the empty or “.” parts of the path.';
    if (part === '..') return '“..” cannot be used: only the session’s folder can be reached.';
    if (part === '.git') return '.git is reserved for git.';
  }
  return null;
}
