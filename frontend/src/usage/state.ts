// Usage and rate limits (docs/api-extensions.md, "Usage and rate limits"):
// the REST calls, the answer shapes, and the latest rate-limit state shared
// by the header meter and the chat panes.
import type { Api } from '../api';

/** Sums of turns: GET /api/usage's rows and total. */
export interface UsageTotals {
  costUsd: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheCreationTokens: number;
  turns: number;
}

export interface UsageRow extends UsageTotals {
  key: string;
  title?: string;
}

export interface UsageReport {
  from: string;
  to: string;
  groupBy: 'day' | 'session' | 'model';
  rows: UsageRow[];
  total: UsageTotals;
}

/** The subscription limiter's state as the CLI last reported it. */
export interface RateLimit {
  status: string; // allowed | allowed_warning | rejected
  rateLimitType?: string; // five_hour | seven_day | …
  resetsAt?: number; // Unix seconds
  utilization?: number; // 0..1
  updatedAt: string;
  sessionId: string;
  workerId: string;
}

/** Days as YYYY-MM-DD (UTC), the server's unit. */
export function day(d: Date): string {
  return d.toISOString().slice(0, 10);
}

export function fetchUsage(api: Api, groupBy: string, from: string, to: string, sessionId?: string): Promise<UsageReport> {
  const q = new URLSearchParams({ groupBy, from, to });
  if (sessionId !== undefined) q.set('sessionId', sessionId);
  return api.request('GET', `/api/usage?${q.toString()}`);
}

/** The state of a window: how full, and whether to warn. */
export type Level = 'none' | 'ok' | 'warn' | 'rejected';

/** The warning threshold: 80% of a window, or the CLI's own warning. */
export const warnAt = 0.8;

export function level(rl: RateLimit | null): Level {
  if (rl === null) return 'none';
  if (rl.status === 'rejected') return 'rejected';
  if (rl.status === 'allowed_warning' || (rl.utilization ?? 0) >= warnAt) return 'warn';
  return 'ok';
}

const windowNames: Record<string, string> = {
  five_hour: '5-hour',
  seven_day: 'weekly',
  seven_day_opus: 'weekly Opus',
  seven_day_sonnet: 'weekly Sonnet',
  overage: 'extra usage',
};

export function windowName(rl: RateLimit): string {
  return windowNames[rl.rateLimitType ?? ''] ?? 'usage';
}

/** The reset time in the viewer's clock: "15:00", or "Jan 2, 15:00" when not today. */
export function resetText(rl: RateLimit, now = new Date()): string {
  if (rl.resetsAt === undefined) return 'later';
  const at = new Date(rl.resetsAt * 1000);
  const time = at.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  if (at.toDateString() === now.toDateString()) return time;
  return `${at.toLocaleDateString(undefined, { month: 'short', day: 'numeric' })}, ${time}`;
}

export function percent(rl: RateLimit): string | null {
  return rl.utilization === undefined ? null : `${Math.round(rl.utilization * 100)}%`;
}

type Listener = (rl: RateLimit | null) => void;

/** The latest rate-limit state: set from GET /api/rate-limits and the /ws/app frames. */
class RateLimitState {
  private value: RateLimit | null = null;
  private readonly listeners = new Set<Listener>();

  get current(): RateLimit | null {
    return this.value;
  }

  set(rl: RateLimit | null): void {
    this.value = rl;
    for (const l of this.listeners) l(rl);
  }

  /** Calls fn now and on every change; returns the unsubscribe. */
  subscribe(fn: Listener): () => void {
    this.listeners.add(fn);
    fn(this.value);
    return () => this.listeners.delete(fn);
  }

  /** Reads the stored state (on start and after the app socket reconnects). */
  async load(api: Api): Promise<void> {
    const res = await api.request<{ rateLimit: RateLimit | null }>('GET', '/api/rate-limits');
    this.set(res.rateLimit);
  }

  /** Takes a /ws/app frame; reports whether it was a rate-limit frame. */
  applyFrame(f: { type?: string; rateLimit?: RateLimit }): boolean {
    if (f.type !== 'rate-limit' || f.rateLimit === undefined) return false;
    this.set(f.rateLimit);
    return true;
  }
}

export const rateLimits = new RateLimitState();

/** "$0.0123" below a dollar, "$12.34" above. */
export function money(v: number): string {
  return v < 1 ? `$${v.toFixed(4)}` : `$${v.toFixed(2)}`;
}

/** 1234 → "1.2k", 1234567 → "1.2M". */
export function tokens(n: number): string {
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)}k`;
  return String(n);
}
