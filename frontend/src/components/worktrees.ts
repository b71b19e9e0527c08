// The worktrees view (docs/api-extensions.md, "Worktree lifecycle"): every
// worktree agentdesk made, with its disk use and whether it is clean,
// merged or ahead; merge back (merge or squash), push with a pull-request
// link, archive, and a cleanup of the clean, merged ones after a
// confirmation that lists exactly what goes. The server checks again.
// Each repository's settings for new worktrees open from its line.
import { errorMessage, type Api } from '../api';
import { h } from '../dom';
import { archiveSession } from './archive-session';
import { askConfirm } from './dialog';
import { RepoSettingsDialog } from './repo-settings';
import '../styles/worktrees.css';

export interface WorktreeEntry {
  sessionId: string;
  title: string;
  repo: string;
  branch: string;
  path: string;
  base?: string;
  dirty: boolean;
  ahead: number;
  merged: boolean;
  diskBytes: number;
  diskTruncated: boolean;
  error: string | null;
}

interface PushResult { remote: string; url: string | null }
interface CleanupResult { removed: string[]; kept: { path: string; reason: string }[] }

/** Removable: what a cleanup offers (the server decides again). */
export const removable = (w: WorktreeEntry): boolean => w.error === null && !w.dirty && w.merged;

function size(n: number, truncated: boolean): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) { n /= 1024; i++; }
  return `${i === 0 ? n : n.toFixed(1)} ${units[i]}${truncated ? '+' : ''}`;
}

export class WorktreesDialog {
  private readonly dialog: HTMLDialogElement;
  private readonly list = h('ul', { class: 'wt-list', 'aria-label': 'Worktrees' });
  /** One line per repository, with its settings for new worktrees. */
  private readonly repos = h('ul', { class: 'wt-repos', 'aria-label': 'Repositories' });
  private readonly status = h('div', { class: 'wt-status', role: 'status' });
  private readonly cleanupBtn = h('button', { class: 'btn', type: 'button' }, 'Clean up merged');
  private entries: WorktreeEntry[] = [];

  constructor(private readonly api: Api) {
    this.cleanupBtn.addEventListener('click', () => void this.cleanup());
    const close = h('button', { class: 'btn', type: 'button', onClick: () => this.dialog.close() }, 'Close');
    this.dialog = h('dialog', { class: 'app-dialog wt-dialog', 'aria-labelledby': 'wt-title' },
      h('h2', { id: 'wt-title' }, 'Worktrees'), this.status, this.repos, this.list,
      h('div', { class: 'form-actions' }, this.cleanupBtn, close));
    this.dialog.addEventListener('close', () => this.dialog.remove());
  }

  async open(): Promise<void> {
    document.body.append(this.dialog);
    this.dialog.showModal();
    await this.load();
  }

  private async load(): Promise<void> {
    try {
      this.entries = (await this.api.request<{ worktrees: WorktreeEntry[] }>('GET', '/api/worktrees')).worktrees;
    } catch (err) {
      this.say(errorMessage(err), true);
      return;
    }
    this.list.replaceChildren(...this.entries.map((w) => this.row(w)));
    this.repos.replaceChildren(...[...new Set(this.entries.map((w) => w.repo))].map((repo) => h('li', { class: 'wt-repo' },
      h('code', null, repo),
      h('button', { class: 'btn', type: 'button', 'aria-label': `Repository settings of ${repo}`, onClick: () => void new RepoSettingsDialog(this.api, repo).open() }, 'Repository settings…'))));
    if (this.entries.length === 0) this.list.append(h('li', { class: 'muted' }, 'No worktrees. Sessions made from a repository with “new worktree” show here.'));
    const n = this.entries.filter(removable).length;
    this.cleanupBtn.textContent = `Clean up merged (${n})`;
    this.cleanupBtn.disabled = n === 0;
  }

  private row(w: WorktreeEntry): HTMLElement {
    const badges = w.error !== null ? [h('span', { class: 'wt-badge bad' }, w.error)] : [
      h('span', { class: `wt-badge ${w.dirty ? 'bad' : 'ok'}` }, w.dirty ? 'uncommitted changes' : 'clean'),
      h('span', { class: `wt-badge ${w.merged ? 'ok' : ''}` }, w.merged ? 'merged' : `ahead ${w.ahead}`),
      h('span', { class: 'wt-badge' }, size(w.diskBytes, w.diskTruncated)),
    ];
    const act = (label: string, fn: () => Promise<void>, disabled = false) =>
      h('button', { class: 'btn', type: 'button', disabled, onClick: () => void fn() }, label);
    const canMerge = w.error === null && !w.merged && (w.base ?? '') !== '';
    return h('li', { class: 'wt-row', 'data-path': w.path },
      h('div', { class: 'wt-head' }, h('strong', null, w.title), ' ',
        h('code', null, w.branch), ' → ', h('code', null, w.base ?? '?')),
      h('div', { class: 'wt-path' }, h('code', null, w.path)),
      h('div', { class: 'wt-badges' }, ...badges),
      h('div', { class: 'wt-actions' },
        act('Merge', () => this.merge(w, 'merge'), !canMerge),
        act('Squash', () => this.merge(w, 'squash'), !canMerge),
        act('Push & PR', () => this.push(w), w.error !== null),
        act('Archive', () => this.archive(w))));
  }

  private say(msg: string | Node, bad = false): void {
    this.status.replaceChildren(msg);
    this.status.classList.toggle('bad', bad);
  }

  private async merge(w: WorktreeEntry, mode: 'merge' | 'squash'): Promise<void> {
    const a = await askConfirm({
      title: `${mode === 'squash' ? 'Squash' : 'Merge'} ${w.branch} into ${w.base}?`,
      body: [h('p', null, 'In the repository’s main work tree ', h('code', null, w.repo),
        mode === 'squash' ? ': one new commit with all the branch’s changes.' : ': a merge commit.'),
      'A conflict aborts the merge and leaves the repository as it was.'],
      confirm: mode === 'squash' ? 'Squash and commit' : 'Merge',
    });
    if (!a.ok) return;
    try {
      await this.api.request('POST', `/api/sessions/${encodeURIComponent(w.sessionId)}/worktree/merge`, { mode });
      this.say(`${w.branch} ${mode === 'squash' ? 'squashed' : 'merged'} into ${w.base}.`);
    } catch (err) {
      this.say(errorMessage(err), true);
    }
    await this.load();
  }

  private async push(w: WorktreeEntry): Promise<void> {
    this.say(`Pushing ${w.branch}…`);
    try {
      const r = await this.api.request<PushResult>('POST', `/api/sessions/${encodeURIComponent(w.sessionId)}/worktree/push`);
      this.say(r.url === null ? `Pushed ${w.branch} to ${r.remote}.`
        : h('span', null, `Pushed ${w.branch} to ${r.remote}. `,
          h('a', { href: r.url, target: '_blank', rel: 'noopener noreferrer', class: 'wt-pr' }, 'Open a pull request ↗')));
    } catch (err) {
      this.say(errorMessage(err), true);
    }
  }

  private async archive(w: WorktreeEntry): Promise<void> {
    try {
      if ((await archiveSession(this.api, w)) === null) return;
      this.say(`Archived “${w.title}”.`);
    } catch (err) {
      this.say(errorMessage(err), true);
    }
    await this.load();
  }

  private async cleanup(): Promise<void> {
    const paths = this.entries.filter(removable).map((w) => w.path);
    if (paths.length === 0) return;
    const a = await askConfirm({
      title: `Remove ${paths.length} merged worktree${paths.length === 1 ? '' : 's'}?`,
      body: [h('p', null, 'These folders are clean and merged; they are removed, their branches kept and their sessions archived:'),
        h('ul', { class: 'wt-confirm-list' }, ...paths.map((p) => h('li', null, h('code', null, p))))],
      confirm: 'Remove them', danger: true,
    });
    if (!a.ok) return;
    try {
      const r = await this.api.request<CleanupResult>('POST', '/api/worktrees/cleanup', { paths });
      const kept = r.kept.map((k) => `${k.path}: ${k.reason}`).join('; ');
      this.say(`Removed ${r.removed.length}.${kept !== '' ? ` Kept ${kept}.` : ''}`, r.kept.length > 0);
    } catch (err) {
      this.say(errorMessage(err), true);
    }
    await this.load();
  }
}
