// In-memory copy of the server's sessions and workers, fed by REST answers and
// /ws/app frames. Every change is an upsert or a removal keyed by id, so a frame
// that repeats a REST answer (or arrives twice) changes nothing. Listeners are
// notified once per microtask, however many changes happened.
import type { Activity, AppFrame, Session, Worker } from './types';

export type Listener = () => void;

export class Store {
  private readonly sessions = new Map<string, Session>();
  private readonly listeners = new Set<Listener>();
  private pending = false;
  /** True once a full list (REST or sessions-sync) has arrived. */
  loaded = false;

  subscribe(fn: Listener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Sessions, newest createdAt first (the order of GET /api/sessions). */
  list(): Session[] {
    return [...this.sessions.values()].sort(byNewest);
  }

  session(sid: string): Session | undefined {
    return this.sessions.get(sid);
  }

  worker(sid: string, wid: string): Worker | undefined {
    return this.sessions.get(sid)?.workers.find((w) => w.id === wid);
  }

  replaceAll(list: Session[]): void {
    this.sessions.clear();
    for (const s of list) this.sessions.set(s.id, normalize(s));
    this.loaded = true;
    this.changed();
  }

  upsertSession(s: Session): void {
    this.sessions.set(s.id, normalize(s));
    this.changed();
  }

  removeSession(sid: string): void {
    if (this.sessions.delete(sid)) this.changed();
  }

  upsertWorker(w: Worker): void {
    const s = this.sessions.get(w.sessionId);
    if (s === undefined) return; // its session-created frame carries it
    const i = s.workers.findIndex((x) => x.id === w.id);
    const workers = [...s.workers];
    if (i >= 0) workers[i] = w;
    else workers.push(w);
    this.sessions.set(s.id, { ...s, workers });
    this.changed();
  }

  removeWorker(sid: string, wid: string): void {
    const s = this.sessions.get(sid);
    if (s === undefined || !s.workers.some((w) => w.id === wid)) return;
    const activeAgentWorkerId = s.activeAgentWorkerId === wid ? null : s.activeAgentWorkerId;
    this.sessions.set(sid, { ...s, activeAgentWorkerId, workers: s.workers.filter((w) => w.id !== wid) });
    this.changed();
  }

  setActivity(sid: string, wid: string, activity: Activity | null): void {
    const w = this.worker(sid, wid);
    if (w === undefined || w.activity === activity) return;
    this.upsertWorker({ ...w, activity });
  }

  /** Applies one /ws/app frame. Unknown frame types are ignored (the contract may grow). */
  apply(f: AppFrame): void {
    switch (f.type) {
      case 'sessions-sync':
        this.replaceAll(f.sessions);
        break;
      case 'session-created':
      case 'session-updated':
        this.upsertSession(f.session);
        break;
      case 'session-deleted':
        this.removeSession(f.sessionId);
        break;
      case 'worker-created':
      case 'worker-updated':
        this.upsertWorker(f.worker);
        break;
      case 'worker-deleted':
        this.removeWorker(f.sessionId, f.workerId);
        break;
      case 'worker-activity':
        this.setActivity(f.sessionId, f.workerId, f.activity);
        break;
      default:
        break;
    }
  }

  private changed(): void {
    if (this.pending) return;
    this.pending = true;
    queueMicrotask(() => {
      this.pending = false;
      for (const fn of [...this.listeners]) fn();
    });
  }
}

function normalize(s: Session): Session {
  return { ...s, workers: Array.isArray(s.workers) ? s.workers : [] };
}

function byNewest(a: Session, b: Session): number {
  if (a.createdAt === b.createdAt) return a.id < b.id ? 1 : -1;
  return Date.parse(b.createdAt) - Date.parse(a.createdAt);
}

/** The most urgent activity among a session's workers: asking > stalled > active > idle. */
export function sessionActivity(s: Session): Activity | null {
  let best: Activity | null = null;
  for (const w of s.workers) {
    if (w.activity === 'asking') return 'asking';
    if (w.activity === 'stalled') best = 'stalled';
    else if (w.activity === 'active' && best !== 'stalled') best = 'active';
    else if (w.activity === 'idle' && best === null) best = 'idle';
  }
  return best;
}
