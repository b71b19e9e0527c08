// Who provides the tools the agent calls through agentdesk's tool bridge
// (mcp__agentdesk__<tool>): tool cards show the provider's name. Learned from
// GET /api/sessions/:sid/tools; agentdesk's own tools are known.
import { h } from '../dom';

/** The prefix of the bridge's tools in the agent's tool names. */
export const bridgePrefix = 'mcp__agentdesk__';

const known = new Map<string, string>([['ask_user', 'agentdesk'], ['show', 'agentdesk'], ['notify', 'agentdesk']]);
const chips = new Map<string, Set<HTMLElement>>();

function label(tool: string): string {
  const p = known.get(tool);
  return p === undefined ? 'agentdesk tool' : `from ${p}`;
}

/** The short name of a bridge tool, or the name as it is. */
export function shortToolName(name: string): string {
  return name.startsWith(bridgePrefix) ? name.slice(bridgePrefix.length) : name;
}

/** A chip naming the provider of a bridge tool; null for other tools. */
export function providerChip(name: string): HTMLElement | null {
  if (!name.startsWith(bridgePrefix)) return null;
  const tool = shortToolName(name);
  const el = h('span', { class: 'tool-provider', 'data-provider-of': tool }, label(tool));
  let set = chips.get(tool);
  if (set === undefined) chips.set(tool, (set = new Set()));
  set.add(el);
  return el;
}

/** Records the providers of a session's tools and updates the chips shown. */
export function learnProviders(list: readonly { name: string; provider: string }[]): void {
  for (const t of list) {
    if (known.get(t.name) === t.provider) continue;
    known.set(t.name, t.provider);
    for (const el of chips.get(t.name) ?? []) {
      if (el.isConnected) el.textContent = label(t.name);
      else chips.get(t.name)?.delete(el);
    }
  }
}

/** Fetches the session's tools and learns their providers; failures are quiet. */
export async function loadProviders(sid: string): Promise<void> {
  try {
    const res = await fetch(`/api/sessions/${encodeURIComponent(sid)}/tools`, { credentials: 'same-origin' });
    if (!res.ok) return;
    const body = (await res.json()) as { tools?: { name: string; provider: string }[] };
    learnProviders(body.tools ?? []);
  } catch {
    // The chips keep their generic label.
  }
}
