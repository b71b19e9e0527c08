// One session in the sidebar: a link (dot, title, directory), inline rename
// (Enter saves, Esc cancels, F2 starts), a delete button, and for a session
// in a worktree agentdesk made, an archive button (archive-session.ts).
import { errorMessage } from '../api';
import { baseName, h, setText } from '../dom';
import { routePath } from '../router';
import { sessionActivity } from '../store';
import type { Session } from '../types';

export interface RowActions {
  open(sid: string, ev: MouseEvent | KeyboardEvent): void;
  rename(sid: string, title: string): Promise<void>;
  /** Asks (the app's dialog) and deletes; rejects with the server's error. */
  remove(sid: string): Promise<void>;
  /** Asks (the same dialog as the worktrees view) and archives; rejects with the server's error. */
  archive(sid: string): Promise<void>;
  error(message: string): void;
}

export function sessionLabel(s: Session): string {
  return s.title.trim() !== '' ? s.title : baseName(s.cwd);
}

/** The branch the session works on: checked out in its folder, else its worktree's. */
export function sessionBranch(s: Session): string | null {
  return s.branch ?? s.worktree?.branch ?? null;
}

export class SessionRow {
  readonly el: HTMLLIElement;
  readonly link: HTMLAnchorElement;
  private readonly dot: HTMLElement;
  private readonly title: HTMLElement;
  private readonly cwd: HTMLElement;
  private readonly branch: HTMLElement;
  private readonly mark: HTMLElement;
  private readonly input: HTMLInputElement;
  private readonly renameBtn: HTMLButtonElement;
  private readonly deleteBtn: HTMLButtonElement;
  private readonly archiveBtn: HTMLButtonElement;
  private session: Session;
  private editing = false;

  constructor(s: Session, private readonly actions: RowActions) {
    this.session = s;
    this.dot = h('span', { class: 'dot', 'aria-hidden': 'true' });
    this.title = h('span', { class: 'session-title' });
    this.cwd = h('span', { class: 'session-cwd' });
    this.branch = h('span', { class: 'session-branch', hidden: true });
    this.mark = h('span', { class: 'unread-mark', hidden: true }, 'new');
    this.link = h('a', { class: 'session-link', href: routePath({ sid: s.id, wid: null }) },
      this.dot, h('span', { class: 'session-text' }, this.title, this.cwd, this.branch), this.mark);
    this.input = h('input', { class: 'rename-input', type: 'text', hidden: true, 'aria-label': 'Session title' });
    this.renameBtn = h('button', { class: 'icon-btn', type: 'button' }, '✎');
    this.deleteBtn = h('button', { class: 'icon-btn danger', type: 'button' }, '✕');
    this.archiveBtn = h('button', { class: 'icon-btn archive-btn', type: 'button', hidden: true }, '⊟');
    this.el = h('li', { class: 'session-row' }, this.link, this.input,
      h('span', { class: 'row-actions' }, this.renameBtn, this.archiveBtn, this.deleteBtn));
    this.el.dataset.sid = s.id;
    this.wire();
    this.update(s, false, false);
  }

  /** marked: Claude asked or finished here while the user was elsewhere, not seen yet. */
  update(s: Session, current: boolean, marked: boolean): void {
    this.session = s;
    const label = sessionLabel(s);
    const activity = sessionActivity(s);
    this.dot.dataset.activity = activity ?? 'none';
    this.dot.title = activity ?? 'no agent activity';
    setText(this.title, label);
    setText(this.cwd, s.cwd);
    const branch = sessionBranch(s);
    setText(this.branch, branch ?? '');
    this.branch.hidden = branch === null;
    this.link.title = `${label} — ${s.cwd}${branch !== null ? ` (branch ${branch})` : ''}${activity ? ` (${activity})` : ''}${marked ? ' — needs a look' : ''}`;
    this.mark.hidden = !marked;
    this.el.classList.toggle('marked', marked);
    this.el.classList.toggle('archived', s.archived === true);
    if (current) this.link.setAttribute('aria-current', 'page');
    else this.link.removeAttribute('aria-current');
    this.el.classList.toggle('current', current);
    this.renameBtn.setAttribute('aria-label', `Rename session ${label}`);
    this.renameBtn.title = 'Rename (F2)';
    this.deleteBtn.setAttribute('aria-label', `Delete session ${label}`);
    this.deleteBtn.title = 'Delete (Delete key)';
    // Only a live worktree can be archived; an archived session stays readable as it is.
    this.archiveBtn.hidden = s.worktree == null || s.archived === true;
    this.archiveBtn.setAttribute('aria-label', `Archive session ${label}`);
    this.archiveBtn.title = 'Archive: remove its worktree, keep the conversation';
  }

  startRename(): void {
    if (this.editing) return;
    this.editing = true;
    this.input.value = this.session.title;
    this.link.hidden = true;
    this.input.hidden = false;
    this.input.focus();
    this.input.select();
  }

  private endRename(focusLink: boolean): void {
    if (!this.editing) return;
    this.editing = false;
    this.input.hidden = true;
    this.link.hidden = false;
    if (focusLink) this.link.focus();
  }

  private async saveRename(): Promise<void> {
    const title = this.input.value.trim();
    if (title === this.session.title) {
      this.endRename(true);
      return;
    }
    this.input.disabled = true;
    try {
      await this.actions.rename(this.session.id, title);
      this.input.disabled = false;
      this.endRename(true);
    } catch (err) {
      this.input.disabled = false;
      this.actions.error(`Could not rename the session: ${errorMessage(err)}`);
      this.input.focus();
    }
  }

  private async confirmDelete(): Promise<void> {
    try {
      await this.actions.remove(this.session.id);
    } catch (err) {
      this.actions.error(`Could not delete the session: ${errorMessage(err)}`);
    }
  }

  private async confirmArchive(): Promise<void> {
    try {
      await this.actions.archive(this.session.id);
    } catch (err) {
      this.actions.error(`Could not archive the session: ${errorMessage(err)}`);
    }
  }

  private wire(): void {
    this.link.addEventListener('click', (ev) => this.actions.open(this.session.id, ev));
    this.link.addEventListener('keydown', (ev) => {
      if (ev.key === 'F2') {
        ev.preventDefault();
        this.startRename();
      } else if (ev.key === 'Delete') {
        ev.preventDefault();
        void this.confirmDelete();
      }
    });
    this.renameBtn.addEventListener('click', () => this.startRename());
    this.deleteBtn.addEventListener('click', () => void this.confirmDelete());
    this.archiveBtn.addEventListener('click', () => void this.confirmArchive());
    this.input.addEventListener('keydown', (ev) => {
      if (ev.key === 'Enter') {
        ev.preventDefault();
        void this.saveRename();
      } else if (ev.key === 'Escape') {
        ev.preventDefault();
        this.endRename(true);
      }
    });
    // Leaving the field without Enter cancels: nothing is saved by accident.
    this.input.addEventListener('blur', () => {
      if (!this.input.disabled) this.endRename(false);
    });
  }
}
