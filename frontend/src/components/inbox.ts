// The "needs you" inbox: every worker across sessions that waits for the
// user (GET /api/attention, /ws/app "attention" frames). A sidebar button
// with the count, the count in the title and on the phone's menu button, and
// a panel listing the entries with how long each waited, permissions and
// questions answered in place. A session shown in a visible page is
// reported seen (POST …/seen), which clears its "finished" entry.
import { errorMessage, type Api } from '../api';
import { h } from '../dom';
import type { Answer } from '../panes/chat/permission-card';
import { setAttentionCount } from '../title';
import { InboxItem, itemKey, type AttentionItem } from './inbox-item';
import '../styles/inbox.css';

export interface InboxDeps {
  currentSid(): string | null;
  open(sid: string, wid: string): void;
}

const enc = encodeURIComponent;

export class Inbox {
  readonly button: HTMLButtonElement;
  readonly panel: HTMLElement;
  private readonly badge: HTMLElement;
  private readonly badgeCount: HTMLElement;
  private readonly list: HTMLUListElement;
  private readonly empty: HTMLElement;
  private readonly views = new Map<string, InboxItem>();
  private items: AttentionItem[] = [];
  private timer: number | undefined;
  private readonly seenSent = new Set<string>();
  private readonly onVisible = (): void => this.reportSeen();
  private readonly onKey = (ev: KeyboardEvent): void => {
    if (ev.key === 'Escape' && !this.panel.hidden) this.close(true);
  };

  constructor(private readonly api: Api, private readonly deps: InboxDeps, private readonly menuButton: HTMLElement) {
    this.badgeCount = h('span');
    this.badge = h('span', { class: 'inbox-badge', hidden: true }, this.badgeCount, h('span', { class: 'sr-only' }, ' waiting'));
    this.button = h('button', { class: 'btn inbox-btn', type: 'button', 'aria-expanded': 'false', 'aria-controls': 'inbox', onClick: () => this.toggle() },
      'Needs you ', this.badge);
    this.list = h('ul', { class: 'inbox-list' });
    this.empty = h('p', { class: 'muted inbox-empty' }, 'Nothing waits for you.');
    const closeBtn = h('button', { class: 'icon-btn inbox-close', type: 'button', 'aria-label': 'Close the inbox', onClick: () => this.close(true) }, '✕');
    this.panel = h('section', { class: 'inbox', id: 'inbox', role: 'dialog', 'aria-label': 'Needs you', hidden: true },
      h('div', { class: 'inbox-head' }, h('h2', null, 'Needs you'), closeBtn), this.empty, this.list);
    document.addEventListener('visibilitychange', this.onVisible);
    document.addEventListener('keydown', this.onKey);
    this.render();
  }

  dispose(): void {
    document.removeEventListener('visibilitychange', this.onVisible);
    document.removeEventListener('keydown', this.onKey);
    this.stopTimer();
  }

  /** The whole list, from an attention frame. */
  set(items: AttentionItem[]): void {
    this.items = items;
    const live = new Set(items.map((i) => `${i.sessionId}|${i.since}`));
    for (const k of this.seenSent) if (!live.has(k)) this.seenSent.delete(k);
    this.render();
    this.reportSeen();
  }

  /** The page now shows another session (or none). */
  routeChanged(): void {
    this.reportSeen();
  }

  toggle(): void {
    if (this.panel.hidden) this.openPanel();
    else this.close(true);
  }

  private openPanel(): void {
    this.panel.hidden = false;
    this.button.setAttribute('aria-expanded', 'true');
    this.tick();
    // Waiting times move on while the panel shows.
    this.timer ??= window.setInterval(() => this.tick(), 15_000);
    (this.panel.querySelector<HTMLElement>('.inbox-open') ?? this.panel.querySelector<HTMLElement>('.inbox-close'))?.focus();
  }

  private close(focusButton: boolean): void {
    this.panel.hidden = true;
    this.button.setAttribute('aria-expanded', 'false');
    this.stopTimer();
    if (focusButton && this.button.isConnected && this.button.offsetParent !== null) this.button.focus();
  }

  private stopTimer(): void {
    if (this.timer !== undefined) window.clearInterval(this.timer);
    this.timer = undefined;
  }

  private tick(): void {
    const now = Date.now();
    for (const v of this.views.values()) v.tick(now);
  }

  private render(): void {
    const keep = new Set(this.items.map(itemKey));
    for (const [k, v] of this.views) {
      if (!keep.has(k)) {
        v.el.remove();
        this.views.delete(k);
      }
    }
    let prev: HTMLElement | null = null;
    for (const it of this.items) {
      const k = itemKey(it);
      let v = this.views.get(k);
      if (v === undefined) {
        v = new InboxItem(it, (x) => this.openItem(x), (x, a) => this.answer(x, a));
        this.views.set(k, v);
      }
      const want: ChildNode | null = prev === null ? this.list.firstChild : prev.nextSibling;
      if (want !== v.el) this.list.insertBefore(v.el, want);
      prev = v.el;
    }
    this.tick();
    const n = this.items.length;
    this.badgeCount.textContent = String(n);
    this.badge.hidden = n === 0;
    this.button.dataset.count = String(n);
    this.empty.hidden = n > 0;
    if (n > 0) this.menuButton.dataset.badge = String(n);
    else delete this.menuButton.dataset.badge;
    setAttentionCount(n);
  }

  private openItem(it: AttentionItem): void {
    this.close(false);
    this.deps.open(it.sessionId, it.workerId);
  }

  private async answer(it: AttentionItem, a: Answer): Promise<void> {
    const rid = it.request?.requestId ?? '';
    const path = `/api/sessions/${enc(it.sessionId)}/workers/${enc(it.workerId)}/permissions/${enc(rid)}`;
    try {
      await this.api.request<void>('POST', path, a);
    } catch (err) {
      throw new Error(errorMessage(err));
    }
    // The entry goes with the next attention frame.
  }

  /** Tells the server the user sees the current session, once per finished entry. */
  private reportSeen(): void {
    const sid = this.deps.currentSid();
    if (sid === null || document.visibilityState !== 'visible') return;
    const finished = this.items.find((i) => i.sessionId === sid && i.kind === 'finished');
    if (finished === undefined) return;
    const key = `${sid}|${finished.since}`;
    if (this.seenSent.has(key)) return;
    this.seenSent.add(key);
    this.api.request<void>('POST', `/api/sessions/${enc(sid)}/seen`).catch(() => this.seenSent.delete(key));
  }
}
