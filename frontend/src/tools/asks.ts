// What agentdesk's own tools (builtin.ts) wait for in this tab: ask_user
// forms and show requests, by session, until the person answers or the call
// is cancelled. The chat pane of the session shows them (dock.ts).
import type { ContentItem } from './client.js';

export interface AskSpec {
  question: string;
  choices: string[];
  multiple: boolean;
  /** A free-text answer is offered (always when there are no choices). */
  allowText: boolean;
  /** A file may be attached; accept is the file input's accept list. */
  file: boolean;
  accept: string;
}

export interface ShowSpec {
  path: string;
  url: string;
  line: number | null;
}

export interface Pending {
  callId: string;
  sessionId: string;
  toolUseId: string;
  ask?: AskSpec;
  show?: ShowSpec;
  /** Ends the call with this content (isError for a decline). */
  done(content: ContentItem[], isError: boolean): void;
}

type Listener = () => void;

class Asks {
  private readonly bySid = new Map<string, Pending[]>();
  private readonly listeners = new Map<string, Set<Listener>>();

  list(sid: string): readonly Pending[] {
    return this.bySid.get(sid) ?? [];
  }

  add(p: Pending): void {
    this.bySid.set(p.sessionId, [...this.list(p.sessionId), p]);
    this.changed(p.sessionId);
  }

  remove(callId: string): void {
    for (const [sid, list] of this.bySid) {
      const next = list.filter((p) => p.callId !== callId);
      if (next.length === list.length) continue;
      if (next.length === 0) this.bySid.delete(sid);
      else this.bySid.set(sid, next);
      this.changed(sid);
    }
  }

  subscribe(sid: string, fn: Listener): () => void {
    let set = this.listeners.get(sid);
    if (set === undefined) this.listeners.set(sid, (set = new Set()));
    set.add(fn);
    return () => set.delete(fn);
  }

  private changed(sid: string): void {
    for (const fn of this.listeners.get(sid) ?? []) fn();
  }
}

export const asks = new Asks();
