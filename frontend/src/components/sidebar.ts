// Sidebar: the new-session form and the session list (newest first), with
// per-session activity dots, inline rename and delete.
import type { Api } from '../api';
import { h, reconcile } from '../dom';
import type { Session } from '../types';
import { SessionForm } from './session-form';
import { SessionRow, type RowActions } from './session-row';

export class Sidebar {
  readonly el: HTMLElement;
  readonly form: SessionForm;
  private readonly list: HTMLUListElement;
  private readonly empty: HTMLElement;
  private readonly error: HTMLElement;
  private readonly rows = new Map<string, HTMLLIElement>();
  private readonly views = new Map<string, SessionRow>();

  constructor(api: Api, onCreated: (s: Session) => void, private readonly actions: Omit<RowActions, 'error'>) {
    this.form = new SessionForm(api, onCreated);
    this.list = h('ul', { class: 'session-list', 'aria-label': 'Sessions' });
    this.empty = h('p', { class: 'muted empty-list' }, 'No sessions yet. Create one with “+ New session”: give it the folder of a project.');
    this.error = h('p', { class: 'form-error', role: 'alert' });
    this.el = h('nav', { class: 'sidebar', id: 'sidebar', 'aria-label': 'Sessions' }, this.form.el, this.error, this.list, this.empty);
    this.list.addEventListener('keydown', (ev) => this.onListKey(ev));
  }

  /** marked: sessions that need a look (an agent asked or finished while elsewhere). */
  render(sessions: Session[], currentSid: string | null, marked: ReadonlySet<string> = new Set()): void {
    const rowActions: RowActions = { ...this.actions, error: (m) => this.showError(m) };
    reconcile(this.list, sessions, (s) => s.id, this.rows,
      (s) => {
        const row = new SessionRow(s, rowActions);
        this.views.set(s.id, row);
        return row.el;
      },
      (el, s) => this.views.get(el.dataset.sid ?? '')?.update(s, s.id === currentSid, marked.has(s.id)));
    for (const sid of this.views.keys()) if (!this.rows.has(sid)) this.views.delete(sid);
    this.empty.hidden = sessions.length > 0;
  }

  /** Focuses the current session's link, else the first one, else the new-session button. */
  focus(currentSid: string | null): void {
    const current = currentSid !== null ? this.views.get(currentSid)?.link : undefined;
    const link = current ?? this.list.querySelector<HTMLAnchorElement>('a.session-link');
    if (link) link.focus();
    else this.form.el.querySelector('button')?.focus();
  }

  showError(message: string): void {
    this.error.textContent = message;
    window.setTimeout(() => {
      if (this.error.textContent === message) this.error.textContent = '';
    }, 8000);
  }

  /** Up/Down move between session links. */
  private onListKey(ev: KeyboardEvent): void {
    if (ev.altKey || (ev.key !== 'ArrowDown' && ev.key !== 'ArrowUp')) return;
    const links = [...this.list.querySelectorAll<HTMLAnchorElement>('a.session-link:not([hidden])')];
    const i = links.indexOf(document.activeElement as HTMLAnchorElement);
    if (i < 0) return;
    ev.preventDefault();
    const next = links[ev.key === 'ArrowDown' ? Math.min(i + 1, links.length - 1) : Math.max(i - 1, 0)];
    next?.focus();
  }
}
