// Deleting a session, with the app's dialog. A session that runs in a git
// worktree agentdesk made offers to remove that folder too, and says when
// it has uncommitted changes; removing such a worktree always takes a
// second, explicit confirmation (then force=true), also when the changes
// appear between the first answer and the request (409 conflict).
import { ApiError, type Api, type DeleteOptions } from '../api';
import { h } from '../dom';
import type { Session } from '../types';
import { askConfirm } from './dialog';
import { sessionLabel } from './session-row';

/** Performs the DELETE (and the store bookkeeping) with the options chosen. */
export type Remove = (sid: string, o: DeleteOptions) => Promise<void>;

/** Asks, then deletes. Resolves when done or declined; rejects with the server's error. */
export async function deleteSession(api: Api, s: Session, remove: Remove): Promise<void> {
  const wt = s.worktree ?? null;
  let dirty = false;
  if (wt !== null) {
    try {
      dirty = (await api.inspectRepo(wt.path, true)).dirty === true;
    } catch {
      // Unknown: the server still refuses a dirty worktree without force.
    }
  }
  const label = sessionLabel(s);
  const answer = await askConfirm({
    title: `Delete session “${label}”?`,
    body: ['Its workers are stopped, and its conversation and terminal output are removed from agentdesk.'],
    confirm: 'Delete session',
    danger: true,
    check: wt === null ? undefined : {
      label: 'Also remove its git worktree folder (the branch is kept)',
      note: h('p', { class: 'hint' }, h('code', null, wt.path), ` on branch `, h('code', null, wt.branch),
        dirty ? h('span', { class: 'dialog-warn' }, ' — it has uncommitted changes.') : ''),
    },
  });
  if (!answer.ok) return;
  const o: DeleteOptions = { removeWorktree: answer.checked };
  if (answer.checked && dirty) {
    if (!(await confirmLoseChanges(wt?.path ?? ''))) return;
    o.force = true;
  }
  try {
    await remove(s.id, o);
  } catch (err) {
    if (!(err instanceof ApiError && err.code === 'conflict' && o.removeWorktree === true && o.force !== true)) throw err;
    if (!(await confirmLoseChanges(wt?.path ?? ''))) return;
    await remove(s.id, { removeWorktree: true, force: true });
  }
}

/** The second confirmation: removing a worktree with uncommitted changes loses them. */
export async function confirmLoseChanges(path: string): Promise<boolean> {
  const a = await askConfirm({
    title: 'Remove a worktree with uncommitted changes?',
    body: [
      h('p', null, h('code', null, path), ' has changes that are not committed (or untracked files).'),
      h('p', { class: 'dialog-warn' }, 'Removing it deletes those changes for good. Nothing has been deleted yet.'),
    ],
    confirm: 'Delete the changes too',
    cancel: 'Keep everything',
    danger: true,
  });
  return a.ok;
}
