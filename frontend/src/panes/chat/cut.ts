// Where a page of older messages may begin. A tool call's card takes its
// result and its sub-agent's messages from later messages; a page rendered
// on its own should hold the call with them. cleanStart finds the first
// message from which no message refers to a call before it, so the page
// read from the server is cut there and the messages before the cut come
// again with the next older page.
import { blocksOf, str, type CliMessage } from './protocol';

/** The tool calls message m refers to: its results' calls, its sub-agent's call, a system note's call. */
export function refsOf(m: CliMessage): string[] {
  const out: string[] = [];
  const parent = m.parent_tool_use_id;
  if (typeof parent === 'string' && parent !== '') out.push(parent);
  if (m.type === 'user') {
    for (const b of blocksOf(m)) if (b.type === 'tool_result' && typeof b.tool_use_id === 'string' && b.tool_use_id !== '') out.push(b.tool_use_id);
  } else if (m.type === 'system') {
    const id = str(m, 'tool_use_id');
    if (id !== '') out.push(id);
  }
  return out;
}

/** The tool calls message m makes. */
export function defsOf(m: CliMessage): string[] {
  if (m.type !== 'assistant') return [];
  return blocksOf(m).filter((b) => b.type === 'tool_use' && typeof b.id === 'string' && b.id !== '').map((b) => b.id as string);
}

/**
 * The index of msgs (oldest first) from which the messages render on their
 * own: no message at or after it refers to a call made before it. 0 when
 * there is no such index short of the end (the caller renders them all).
 */
export function cleanStart(msgs: readonly CliMessage[]): number {
  const defAt = new Map<string, number>();
  msgs.forEach((m, i) => {
    for (const id of defsOf(m)) if (!defAt.has(id)) defAt.set(id, i);
  });
  // Each reference excludes the cuts in (its call, itself]; one to a call
  // not in msgs (or after it) needs the cut after itself.
  const spans: [number, number][] = [];
  let start = 0;
  msgs.forEach((m, j) => {
    for (const id of refsOf(m)) {
      const k = defAt.get(id);
      if (k === undefined || k >= j) start = Math.max(start, j + 1);
      else spans.push([k, j]);
    }
  });
  for (let moved = true; moved && start < msgs.length;) {
    moved = false;
    for (const [k, j] of spans) {
      if (start > k && start <= j) {
        start = j + 1;
        moved = true;
      }
    }
  }
  return start < msgs.length ? start : 0;
}
