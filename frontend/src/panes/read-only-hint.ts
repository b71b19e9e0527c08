// Why an agent's view takes no input, in words that point at what is on the
// screen: an archived session has nothing to go on with; a conversation
// that moved on names the tab it goes on in; one with no live view says how
// to start one. Shared by the chat and the terminal view.
import { isAgent, workerKind, workerLabel } from '../kinds';
import type { Session, Worker } from '../types';

export function readOnlyHint(w: Worker, s: Session): string {
  const what = workerKind(w).label.toLowerCase();
  if (s.archived === true) return `This session is archived: its ${what} stays here to read, and takes no more messages.`;
  const active = s.workers.find((x) => x.id === s.activeAgentWorkerId);
  if (active !== undefined && active.id !== w.id && isAgent(active) && (active.status === 'running' || active.status === 'starting')) {
    return `This ${what} no longer drives the conversation: it goes on in the “${workerLabel(active)}” tab.`;
  }
  return `This ${what} no longer drives the conversation. To go on, add a Claude chat with the + button above the tabs.`;
}
