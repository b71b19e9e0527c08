// Archiving a worktree session (POST /api/sessions/:sid/archive,
// docs/api-extensions.md "Worktree lifecycle"), behind the app's
// confirmation: its workers stop, its worktree folder goes (the branch
// stays) and the conversation stays readable. One place for the worktrees
// view and the session's own actions in the sidebar. A worktree with
// uncommitted or untracked files takes the same second confirmation as
// deleting one (then force=true); the server checks at that moment.
import { ApiError, type Api } from '../api';
import { h } from '../dom';
import type { Session } from '../types';
import { confirmLoseChanges } from './delete-session';
import { askConfirm } from './dialog';

/** What the confirmation names: the session and its worktree folder. */
export interface ArchiveTarget {
  sessionId: string;
  title: string;
  path: string;
}

/**
 * Asks, then archives. Resolves to the archived session, or null when the
 * person declined; rejects with the server's error.
 */
export async function archiveSession(api: Api, t: ArchiveTarget): Promise<Session | null> {
  const a = await askConfirm({
    title: `Archive session “${t.title}”?`,
    body: [h('p', null, 'Its workers stop and its worktree ', h('code', null, t.path),
      ' is removed (the branch is kept). The conversation stays readable.')],
    confirm: 'Archive', danger: true,
  });
  if (!a.ok) return null;
  const path = `/api/sessions/${encodeURIComponent(t.sessionId)}/archive`;
  try {
    return await api.request<Session>('POST', path);
  } catch (err) {
    // 409 with nothing changed: the folder has changes only force removes.
    if (!(err instanceof ApiError && err.code === 'conflict' && err.message.includes('uncommitted changes'))) throw err;
    if (!(await confirmLoseChanges(t.path))) return null;
    return api.request<Session>('POST', `${path}?force=true`);
  }
}
