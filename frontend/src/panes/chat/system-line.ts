// What a system line of the CLI shows in the conversation (split out of
// transcript.ts): a note, the init card, a retry, a denial; some only
// update a tool card (sub-agent progress) and show nothing themselves.
import { num, str, type CliMessage } from './protocol';
import { note, renderConfigDenied, renderImported, renderImportFailed, renderInit, renderRetry, renderTurnCut } from './render';
import { modeName } from './modes';
import type { ToolCard } from './tool-card';

/** The element for system line m (null: nothing to show); cards are the tool cards shown, by tool_use id. */
export function systemLine(m: CliMessage, cards: ReadonlyMap<string, ToolCard>): HTMLElement | null {
  switch (m.subtype) {
    case 'init':
      return renderInit(m);
    case 'api_retry':
      return renderRetry(m);
    case 'warning':
      return note(str(m, 'text'), 'chat-warn');
    case 'permission_denied':
      cards.get(str(m, 'tool_use_id'))?.markDenied();
      return renderConfigDenied(m);
    case 'agentdesk_imported':
      return renderImported(num(m, 'count') ?? 0);
    case 'agentdesk_import_failed':
      return renderImportFailed(str(m, 'message'));
    case 'agentdesk_turn_cut':
      return renderTurnCut();
    case 'agentdesk_watching':
    case 'agentdesk_watch_ended':
      return note(str(m, 'message'), 'chat-watch');
    case 'task_progress':
      cards.get(str(m, 'tool_use_id'))?.subagentProgress(str(m, 'description'));
      return null;
    case 'task_notification':
      cards.get(str(m, 'tool_use_id'))?.subagentDone(str(m, 'status') || 'completed');
      return null;
    case 'compact_boundary':
      return note('Conversation compacted', 'chat-compact');
    case 'status':
      if (typeof m.permissionMode === 'string' && m.status === null) return note(`Mode: ${modeName(m.permissionMode)}`, 'chat-mode-note');
      return null;
    default:
      return null;
  }
}
