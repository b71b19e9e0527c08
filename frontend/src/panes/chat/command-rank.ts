// Which slash commands the menu offers, and in what order. The CLI lists
// internal commands (a leading "__", like __remote-workflow) and removed
// ones (a description starting "(removed)") that a person cannot use: they
// are left out. The rest come most used first: a small count per command
// kept in this browser's localStorage (picking one from the menu counts),
// then a fixed priority of the everyday commands, then the CLI's order.
import type { SlashCommand } from './complete-source';

const storeKey = 'agentdesk.slashUsage';
/** The counts kept: the most used this many (a bound on what localStorage holds). */
const keep = 40;

/** Everyday commands first when nothing was used yet. */
const priority = ['compact', 'clear', 'model', 'context', 'usage', 'code-review', 'review', 'init', 'config', 'mcp', 'rename'];

/** Whether a person can use c: not internal, not removed. */
export function offered(c: SlashCommand): boolean {
  return !c.name.startsWith('__') && !/^\s*\(removed\)/i.test(c.description ?? '');
}

function counts(): Record<string, number> {
  try {
    const v: unknown = JSON.parse(localStorage.getItem(storeKey) ?? '{}');
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, number>) : {};
  } catch {
    return {}; // private mode, a full or hand-edited store: order without counts
  }
}

/** Counts one use of the command name (the menu picked it). */
export function countUse(name: string): void {
  const c = counts();
  c[name] = (typeof c[name] === 'number' ? c[name] : 0) + 1;
  const top = Object.entries(c).filter(([, n]) => typeof n === 'number' && n > 0)
    .sort((a, b) => b[1] - a[1]).slice(0, keep);
  try {
    localStorage.setItem(storeKey, JSON.stringify(Object.fromEntries(top)));
  } catch {
    // Not kept: the order just does not learn.
  }
}

/**
 * The offered commands matching q: a name starting with q first, then one
 * containing it, then its letters in order; within each, most used, then
 * the everyday ones, then the CLI's order.
 */
export function rankCommands(all: readonly SlashCommand[], q: string): SlashCommand[] {
  const lq = q.toLowerCase();
  const used = counts();
  const prio = (n: string): number => {
    const i = priority.indexOf(n);
    return i < 0 ? priority.length : i;
  };
  const match = (n: string): number => {
    if (n.startsWith(lq)) return 0;
    if (n.includes(lq)) return 1;
    return inOrder(n, lq) ? 2 : -1;
  };
  return all.filter(offered)
    .map((c, i) => ({ c, i, m: match(c.name.toLowerCase()), u: used[c.name] ?? 0, p: prio(c.name) }))
    .filter((x) => x.m >= 0)
    .sort((a, b) => a.m - b.m || b.u - a.u || a.p - b.p || a.i - b.i)
    .map((x) => x.c);
}

function inOrder(s: string, q: string): boolean {
  let i = 0;
  for (const ch of s) if (i < q.length && ch === q[i]) i++;
  return i === q.length;
}
