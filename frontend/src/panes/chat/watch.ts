// An adopted conversation that a claude process outside agentdesk still
// writes: the server follows it read-only and says so with stored system
// notes (docs/api-extensions.md, "Adopt existing sessions"). The last note
// seen decides whether the composer takes messages.
import type { CliMessage } from './protocol';

/** Why the composer is read-only while another process writes the conversation. */
export const watchingReason = 'Claude Code is running this conversation elsewhere (a terminal). Its turns appear here as they happen; the chat takes over when it stops.';

/** true for the note that watching began, false for the one that it ended, null otherwise. */
export function watchState(m: CliMessage): boolean | null {
  if (m.type !== 'system') return null;
  if (m.subtype === 'agentdesk_watching') return true;
  if (m.subtype === 'agentdesk_watch_ended') return false;
  return null;
}
