// Small text helpers for the chat pane: numbers, durations, money, compact JSON.

/**
 * 1234 -> "1,234". By hand, not toLocaleString: its first call sets up ICU
 * number formatting, ~30 ms on the main thread in the middle of a first render.
 */
export function formatInt(n: number): string {
  const r = Math.round(n);
  const digits = String(Math.abs(r));
  if (!/^\d+$/.test(digits)) return String(r); // NaN, Infinity, 1e+21 and up
  return (r < 0 ? '-' : '') + digits.replace(/\B(?=(\d{3})+$)/g, ',');
}

/** 850 -> "850 ms", 3200 -> "3.2 s", 125000 -> "2 min 5 s". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} min ${s % 60} s`;
}

/** Dollars with enough digits for small per-turn amounts. */
export function formatCost(usd: number): string {
  if (usd === 0) return '$0';
  if (usd < 0.01) return `$${usd.toFixed(4)}`;
  if (usd < 1) return `$${usd.toFixed(3)}`;
  return `$${usd.toFixed(2)}`;
}

/** JSON on one line, cut to max characters. */
export function compactJson(v: unknown, max = 120): string {
  let s: string;
  try {
    s = JSON.stringify(v) ?? '';
  } catch {
    s = String(v);
  }
  return clip(s, max);
}

/** JSON indented for reading. */
export function prettyJson(v: unknown): string {
  try {
    return JSON.stringify(v, null, 2) ?? '';
  } catch {
    return String(v);
  }
}

/** s cut to max characters with an ellipsis. */
export function clip(s: string, max: number): string {
  return s.length > max ? s.slice(0, max - 1) + '…' : s;
}

/** The first line of s, cut to max characters. */
export function firstLine(s: string, max = 160): string {
  const nl = s.indexOf('\n');
  return clip(nl < 0 ? s : s.slice(0, nl) + ' …', max);
}
