// Watches every agent worker (sdk and pty-agent) in the store and tells the
// user when Claude needs them: a browser Notification when a worker starts
// asking, or finishes a turn (active → idle) while the page is hidden; a mark
// on the session in the sidebar until it is opened; the "(?) " title prefix
// (src/title.ts) while some agent asks. Permission is asked for only from
// the banner's button (components/notify-banner.ts), never by itself.
import { sessionLabel } from './components/session-row';
import { isAgent } from './kinds';
import type { Store } from './store';
import { setAsking } from './title';
import type { Activity, Session, Worker } from './types';

export interface NotifierDeps {
  /** The session the page shows, or null. */
  currentSid(): string | null;
  /** Opens the session and worker (a notification was clicked). */
  open(sid: string, wid: string): void;
  /** The set of marked sessions changed. */
  marksChanged(): void;
}

/** Whether the browser can show notifications and the user allowed them. */
export function canNotify(): boolean {
  return typeof Notification !== 'undefined' && Notification.permission === 'granted';
}

export class Notifier {
  /** Last seen activity per "sid/wid"; absent before the first look. */
  private readonly last = new Map<string, Activity | null>();
  private readonly marked = new Set<string>();
  private seeded = false;
  private readonly unsubscribe: () => void;
  private readonly onVisible = (): void => this.seen();

  constructor(private readonly store: Store, private readonly deps: NotifierDeps) {
    this.unsubscribe = store.subscribe(() => this.check());
    document.addEventListener('visibilitychange', this.onVisible);
    window.addEventListener('focus', this.onVisible);
    this.check();
  }

  /** Sessions marked as needing a look. */
  get marks(): ReadonlySet<string> {
    return this.marked;
  }

  /** The user looks at the current session (it was opened, or the page came back): unmark it. */
  seen(): void {
    const sid = this.deps.currentSid();
    if (sid === null || document.visibilityState === 'hidden') return;
    if (this.marked.delete(sid)) this.deps.marksChanged();
  }

  dispose(): void {
    this.unsubscribe();
    document.removeEventListener('visibilitychange', this.onVisible);
    window.removeEventListener('focus', this.onVisible);
    for (const key of this.last.keys()) setAsking(key, false);
    this.last.clear();
  }

  private check(): void {
    if (!this.store.loaded) return;
    const alive = new Set<string>();
    for (const s of this.store.list()) {
      for (const w of s.workers) {
        if (!isAgent(w)) continue;
        const key = `${s.id}/${w.id}`;
        alive.add(key);
        this.step(s, w, key);
      }
    }
    for (const key of [...this.last.keys()]) {
      if (alive.has(key)) continue;
      this.last.delete(key);
      setAsking(key, false);
    }
    for (const sid of [...this.marked]) if (this.store.session(sid) === undefined) this.marked.delete(sid);
    this.seeded = true;
  }

  /** One worker's activity change: title, mark, notification. */
  private step(s: Session, w: Worker, key: string): void {
    const now = w.status === 'stopped' ? null : w.activity;
    const had = this.last.has(key);
    const before = this.last.get(key) ?? null;
    this.last.set(key, now);
    setAsking(key, now === 'asking');
    // What was already so when the page loaded is no news.
    if (!this.seeded || (!had && now !== 'asking') || before === now) return;
    const hidden = document.visibilityState === 'hidden';
    if (now === 'asking') this.alert(s, w, 'Claude is asking', hidden || !document.hasFocus());
    else if (now === 'stalled') this.alert(s, w, 'Claude seems stuck', hidden || !document.hasFocus());
    else if (before === 'active' && now === 'idle' && hidden) this.alert(s, w, 'Claude finished', true);
  }

  private alert(s: Session, w: Worker, what: string, away: boolean): void {
    const here = this.deps.currentSid() === s.id && document.visibilityState === 'visible';
    if (!here && !this.marked.has(s.id)) {
      this.marked.add(s.id);
      this.deps.marksChanged();
    }
    if (!away && here) return;
    if (!canNotify()) return;
    try {
      const n = new Notification(`${sessionLabel(s)}: ${what}`, { tag: `agentdesk-${s.id}-${w.id}`, body: s.cwd });
      n.onclick = () => {
        window.focus();
        this.deps.open(s.id, w.id);
        n.close();
      };
    } catch {
      // Some browsers allow notifications only from a service worker: the mark and title stay.
    }
  }
}
