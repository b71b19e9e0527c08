// The review tray above the diff: how many draft comments wait (a badge),
// their list with edit and delete, the sent and outdated marks, and "Send
// review", which sends every draft to the session's agent as one message
// (it waits in the chat's queue while a turn runs). The list is fetched
// when the pane opens and again after every diff frame, since that is
// when comments may become outdated.
import { errorMessage, type Api } from '../../api';
import { h, setText } from '../../dom';
import type { Session } from '../../types';
import { placeLabel, ReviewClient, type Place, type ReviewComment } from './review-model';
import './review.css';

export class ReviewTray {
  readonly el: HTMLElement;
  private readonly client: ReviewClient;
  private readonly toggle: HTMLButtonElement;
  private readonly badge: HTMLElement;
  private readonly sendBtn: HTMLButtonElement;
  private readonly body: HTMLElement;
  private readonly list: HTMLElement;
  private readonly note: HTMLElement;
  private readonly error: HTMLElement;
  private comments: ReviewComment[] = [];
  private editing = '';
  private fetching = false;
  private again = false;

  constructor(api: Api, private session: Session, private readonly onChange: (cs: ReviewComment[]) => void) {
    this.client = new ReviewClient(api, session.id);
    this.badge = h('span', { class: 'rv-badge', 'aria-label': 'draft comments' }, '0');
    this.toggle = h('button', { type: 'button', class: 'btn btn-small rv-toggle', 'aria-expanded': 'false', onClick: () => this.setOpen(this.body.hidden) }, 'Review ', this.badge);
    this.sendBtn = h('button', { type: 'button', class: 'btn btn-small btn-primary rv-send', hidden: true, onClick: () => void this.send() }, 'Send review');
    this.note = h('p', { class: 'rv-note', role: 'status' });
    this.error = h('div', { class: 'rv-error', role: 'alert', hidden: true });
    this.list = h('ol', { class: 'rv-list' });
    this.body = h('div', { class: 'rv-body', hidden: true }, this.error, this.list,
      h('p', { class: 'rv-hint' }, 'Click a line number to comment on that line; shift+click another to select a range. On a touch screen, tap a line, then tap a second one to extend.'));
    this.el = h('section', { class: 'rv', 'aria-label': 'Review comments' }, h('div', { class: 'rv-head' }, this.toggle, this.sendBtn, this.note), this.body);
    this.el.addEventListener('click', (ev) => this.onClick(ev));
    this.refresh();
  }

  setSession(s: Session): void {
    this.session = s;
    this.renderHead();
  }

  /** Fetches the comments again (a new diff may have outdated some). */
  refresh(): void {
    if (this.fetching) {
      this.again = true;
      return;
    }
    this.fetching = true;
    this.client.list().then((cs) => this.render(cs), (e) => this.showError(e)).finally(() => {
      this.fetching = false;
      if (this.again) {
        this.again = false;
        this.refresh();
      }
    });
  }

  /** Stores a new comment from the diff and opens the tray on it. */
  async add(p: Place, body: string): Promise<void> {
    const c = await this.client.add(p, body);
    this.render([...this.comments, c]);
    setText(this.note, '');
  }

  private setOpen(open: boolean): void {
    this.body.hidden = !open;
    this.toggle.setAttribute('aria-expanded', String(open));
  }

  private render(cs: ReviewComment[]): void {
    this.comments = cs;
    this.error.hidden = true;
    this.list.replaceChildren(...cs.map((c) => this.item(c)));
    if (cs.length === 0) this.list.append(h('li', { class: 'rv-empty' }, 'No comments yet.'));
    this.renderHead();
    this.onChange(cs);
  }

  private renderHead(): void {
    const drafts = this.comments.filter((c) => c.status === 'draft').length;
    setText(this.badge, String(drafts));
    this.badge.dataset.count = String(drafts);
    this.sendBtn.hidden = drafts === 0;
    const agent = this.session.activeAgentWorkerId !== null;
    this.sendBtn.disabled = !agent;
    this.sendBtn.title = agent ? `Send ${drafts} ${drafts === 1 ? 'comment' : 'comments'} to the agent as one message` : 'This session has no agent to send the review to';
  }

  private item(c: ReviewComment): HTMLElement {
    const marks = [h('span', { class: `rv-chip rv-${c.status}` }, c.status)];
    if (c.outdated) marks.push(h('span', { class: 'rv-chip rv-outdated-chip', title: 'The quoted lines changed since' }, 'outdated'));
    const quote = h('pre', { class: 'rv-quote' }, c.quote.slice(0, 4).map((l, i) => `${c.startLine + i} | ${l}`).join('\n') + (c.quote.length > 4 ? '\n…' : ''));
    const actions = h('div', { class: 'rv-item-actions' });
    let text: Node = h('p', { class: 'rv-text-body' }, c.body);
    if (this.editing === c.id) {
      const ta = h('textarea', { class: 'rv-text', rows: 3, 'aria-label': 'Comment' });
      ta.value = c.body;
      text = ta;
      actions.append(h('button', { type: 'button', class: 'btn btn-small btn-primary', 'data-act': 'save' }, 'Save'), h('button', { type: 'button', class: 'btn btn-small', 'data-act': 'cancel' }, 'Cancel'));
    } else {
      if (c.status === 'draft') actions.append(h('button', { type: 'button', class: 'btn btn-small', 'data-act': 'edit' }, 'Edit'));
      actions.append(h('button', { type: 'button', class: 'btn btn-small btn-danger-text', 'data-act': 'delete' }, 'Delete'));
    }
    const li = h('li', { class: 'rv-item', 'data-status': c.status }, h('div', { class: 'rv-item-head' }, h('code', { class: 'rv-place' }, placeLabel(c)), ...marks), quote, text, actions);
    li.dataset.id = c.id;
    if (c.outdated) li.classList.add('is-outdated');
    return li;
  }

  private onClick(ev: MouseEvent): void {
    const btn = (ev.target as HTMLElement).closest<HTMLElement>('[data-act]');
    const id = btn?.closest<HTMLElement>('.rv-item')?.dataset.id;
    if (btn == null || id === undefined) return;
    const act = btn.dataset.act;
    if (act === 'edit' || act === 'cancel') {
      this.editing = act === 'edit' ? id : '';
      this.render(this.comments);
    } else if (act === 'save') {
      const ta = btn.closest('.rv-item')!.querySelector('textarea')!;
      void this.act(async () => {
        const c = await this.client.edit(id, ta.value);
        this.editing = '';
        this.render(this.comments.map((x) => (x.id === id ? c : x)));
      });
    } else if (act === 'delete') {
      void this.act(async () => {
        await this.client.remove(id);
        this.render(this.comments.filter((x) => x.id !== id));
      });
    }
  }

  private async send(): Promise<void> {
    await this.act(async () => {
      const r = await this.client.send();
      this.render(r.comments);
      setText(this.note, `Sent ${r.sent} ${r.sent === 1 ? 'comment' : 'comments'} to the agent.`);
    });
  }

  /** Runs one request with the tray busy; a failure shows the server's message. */
  private async act(fn: () => Promise<void>): Promise<void> {
    if (this.el.getAttribute('aria-busy') === 'true') return;
    this.el.setAttribute('aria-busy', 'true');
    try {
      await fn();
    } catch (e) {
      this.showError(e);
    } finally {
      this.el.removeAttribute('aria-busy');
    }
  }

  private showError(e: unknown): void {
    setText(this.error, errorMessage(e));
    this.error.hidden = false;
    this.setOpen(true);
  }
}
