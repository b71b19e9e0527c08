// The pending permission requests of the worker, as cards above the composer.
// A request stays until the server says it is resolved (answered here, in
// another tab, or denied because the CLI exited). After a reconnect the server
// sends the still-pending requests again: the cards it does not repeat were
// resolved while this tab was away and go.
import { h } from '../../dom';
import type { Answer, RequestCard } from './permission-card';
import type { ClientFrame, PermissionRequest } from './protocol';
import { requestCard } from './request-card';

interface Entry {
  card: RequestCard;
  stale: boolean;
}

export class PermissionDock {
  readonly el: HTMLElement;
  private readonly entries = new Map<string, Entry>();

  /**
   * send returns false when the frame could not be sent (not connected);
   * focusOut is called when the focused card goes and no card is left;
   * agent names the chat's agent on the cards.
   */
  constructor(private readonly send: (f: ClientFrame) => boolean, private readonly focusOut: () => void,
    private readonly agent?: string) {
    this.el = h('div', { class: 'chat-dock', hidden: true });
  }

  get size(): number {
    return this.entries.size;
  }

  /** Shows a request (or keeps the card already shown for it). focus: take keyboard focus. */
  add(req: PermissionRequest, focus: boolean): void {
    const have = this.entries.get(req.requestId);
    if (have !== undefined) {
      have.stale = false;
      return;
    }
    const respond = (a: Answer): void => this.respond(req.requestId, a);
    const card = requestCard(req, respond, this.agent);
    this.entries.set(req.requestId, { card, stale: false });
    this.el.append(card.el);
    this.el.hidden = false;
    if (focus) card.focus();
  }

  resolve(requestId: string): void {
    const e = this.entries.get(requestId);
    if (e === undefined) return;
    const hadFocus = e.card.el.contains(document.activeElement);
    e.card.el.remove();
    this.entries.delete(requestId);
    this.el.hidden = this.entries.size === 0;
    if (hadFocus && !this.focusFirst()) this.focusOut();
  }

  /** A new connection: every card must be confirmed by the replay. */
  markStale(): void {
    for (const e of this.entries.values()) e.stale = true;
  }

  /** The replay is complete: drop the cards it did not repeat. */
  sweepStale(): void {
    for (const [id, e] of this.entries) if (e.stale) this.resolve(id);
  }

  clear(): void {
    for (const id of [...this.entries.keys()]) this.resolve(id);
  }

  /** Focuses the oldest card; false when there is none. */
  focusFirst(): boolean {
    const first = this.entries.values().next();
    if (first.done === true) return false;
    first.value.card.focus();
    return true;
  }

  private respond(requestId: string, a: Answer): void {
    const e = this.entries.get(requestId);
    if (e === undefined) return;
    const frame: ClientFrame = { type: 'permission-response', requestId, behavior: a.behavior };
    if (a.message !== undefined) frame.message = a.message;
    if (a.updatedInput !== undefined) frame.updatedInput = a.updatedInput;
    if (a.updatedPermissions !== undefined) frame.updatedPermissions = a.updatedPermissions;
    e.card.setError('');
    if (!this.send(frame)) {
      e.card.setError('Not connected to the server; answer again once it reconnects.');
      return;
    }
    // The card goes when permission-resolved arrives (in every tab at once).
    e.card.setBusy(true);
  }

  /** The server refused an answer (e.g. another tab answered first): let the user retry. */
  unbusyAll(message: string): void {
    for (const e of this.entries.values()) {
      if (e.card.el.dataset.busy === 'true') {
        e.card.setBusy(false);
        e.card.setError(message);
      }
    }
  }
}
