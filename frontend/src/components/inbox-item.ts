// One entry of the "needs you" inbox: what waits, in which session, for how
// long, and for permissions, questions and plans the same card the chat
// shows (panes/chat/request-card.ts), answered here through REST
// (POST …/permissions/:rid, a plan's mode with it).
import { h } from '../dom';
import type { Answer, RequestCard } from '../panes/chat/permission-card';
import type { PermissionRequest } from '../panes/chat/protocol';
import { requestCard } from '../panes/chat/request-card';

/** An item of GET /api/attention (docs/api-extensions.md, "Inbox"). */
export interface AttentionItem {
  sessionId: string;
  sessionTitle: string;
  workerId: string;
  kind: 'permission' | 'question' | 'plan' | 'error' | 'finished' | 'stalled';
  since: string;
  title: string;
  request?: PermissionRequest;
}

const kindText: Record<AttentionItem['kind'], string> = {
  permission: 'Permission',
  question: 'Question',
  plan: 'Plan',
  error: 'Error',
  finished: 'Finished',
  stalled: 'Stalled',
};

/** The entry's identity: one per wait, so a card keeps its inputs across updates. */
export function itemKey(it: AttentionItem): string {
  return `${it.workerId}|${it.kind}|${it.request?.requestId ?? ''}`;
}

/** "just now", "5 min", "2 h 10 min", "3 d". */
export function waited(since: string, now: number): string {
  const mins = Math.floor((now - Date.parse(since)) / 60_000);
  if (!(mins >= 1)) return 'just now';
  if (mins < 60) return `${mins} min`;
  const hours = Math.floor(mins / 60);
  if (hours < 24) return mins % 60 === 0 ? `${hours} h` : `${hours} h ${mins % 60} min`;
  return `${Math.floor(hours / 24)} d`;
}

export class InboxItem {
  readonly el: HTMLLIElement;
  private readonly time: HTMLTimeElement;

  constructor(readonly item: AttentionItem, open: (it: AttentionItem) => void, answer: (it: AttentionItem, a: Answer) => Promise<void>) {
    this.time = h('time', { class: 'inbox-time', datetime: item.since });
    const label = item.sessionTitle || 'Untitled session';
    // The name is the text shown, joined into a sentence by words only
    // screen readers read (a name other than the text hides it from speech control).
    const sr = (text: string): HTMLElement => h('span', { class: 'sr-only' }, text);
    const link = h('button', { class: 'inbox-open', type: 'button' },
      h('span', { class: 'inbox-kind', 'data-kind': item.kind }, kindText[item.kind]), sr(' in '),
      h('span', { class: 'inbox-session' }, label), sr(', waiting '),
      this.time, sr(': '),
      h('span', { class: 'inbox-title' }, item.title), sr('. Open the session'));
    link.addEventListener('click', () => open(item));
    this.el = h('li', { class: 'inbox-item', 'data-kind': item.kind, 'data-sid': item.sessionId }, link);
    const req = item.request;
    if (req !== undefined) {
      const respond = (a: Answer): void => {
        card.setError('');
        card.setBusy(true);
        answer(item, a).catch((err: unknown) => {
          card.setBusy(false);
          card.setError(err instanceof Error ? err.message : String(err));
        });
      };
      // The chat's own card: a plan gets its three choices here too.
      const card: RequestCard = requestCard(req, respond);
      this.el.append(card.el);
    }
  }

  /** Refreshes the waiting time. */
  tick(now: number): void {
    const text = waited(this.item.since, now);
    if (this.time.textContent !== text) this.time.textContent = text;
  }
}
