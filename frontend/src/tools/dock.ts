// The forms and links agentdesk's own tools wait on for a session, in its
// chat above the composer (asks.ts). One per chat pane.
import { h } from '../dom';
import { AskForm } from './ask-form';
import { asks, type Pending, type ShowSpec } from './asks';
import { loadProviders } from './providers';

export class ToolDock {
  readonly el = h('div', { class: 'chat-dock tool-dock', hidden: true });
  private readonly cards = new Map<string, HTMLElement>();
  private readonly unsub: () => void;

  constructor(private readonly sid: string) {
    this.unsub = asks.subscribe(sid, () => this.render());
    this.render();
    void loadProviders(sid);
  }

  dispose(): void {
    this.unsub();
  }

  private render(): void {
    const list = asks.list(this.sid);
    const keep = new Set(list.map((p) => p.callId));
    for (const [id, el] of this.cards) {
      if (!keep.has(id)) {
        el.remove();
        this.cards.delete(id);
      }
    }
    for (const p of list) {
      if (this.cards.has(p.callId)) continue;
      const card = p.ask !== undefined ? new AskForm(p, p.ask) : null;
      const el = card?.el ?? showCard(p, p.show);
      this.cards.set(p.callId, el);
      this.el.append(el);
      if (p.show !== undefined && p.show.path !== '') openFile(el, p.show.path);
      if (card !== null && this.el.offsetParent !== null && !this.el.contains(document.activeElement)) card.focus();
    }
    this.el.hidden = this.cards.size === 0;
  }
}

/** The session view opens a file in its Files tab on this event (bubbling from inside it). */
const openFileEvent = 'agentdesk-open-file';

function openFile(from: HTMLElement, path: string): void {
  from.dispatchEvent(new CustomEvent(openFileEvent, { bubbles: true, detail: { path } }));
}

/** A file or page the agent wants the person to look at. */
function showCard(p: Pending, s: ShowSpec | undefined): HTMLElement {
  const dismiss = h('button', { class: 'btn btn-small', type: 'button' }, 'Dismiss');
  dismiss.addEventListener('click', () => p.done([], false));
  const what = s === undefined ? null : s.url !== ''
    ? h('a', { href: s.url, target: '_blank', rel: 'noopener noreferrer', class: 'tool-show-link' }, s.url)
    : h('code', { class: 'tool-show-path' }, s.line !== null ? `${s.path}:${s.line}` : s.path);
  const again = s === undefined || s.path === '' ? null
    : h('button', { class: 'btn btn-small', type: 'button', onClick: (ev: Event) => openFile(ev.currentTarget as HTMLElement, s.path) }, 'Open in Files');
  return h('div', { class: 'chat-perm tool-show', role: 'group', 'aria-label': 'The agent shows you', 'data-call-id': p.callId },
    h('div', { class: 'perm-head' }, 'The agent wants to show you ', h('span', { class: 'tool-provider' }, 'show · agentdesk')),
    what, h('div', { class: 'perm-actions' }, again, dismiss));
}
