// Bypass permissions lets the agent run every tool without asking. In a
// sandboxed session the box keeps it in (docs/api-extensions.md, "Sandboxed
// sessions"), so it is offered like any mode; outside one it gives the agent
// the whole machine, so it asks first.
import { h } from '../../dom';
import { askConfirm } from '../../components/dialog';

/** Resolves true when bypassPermissions may be chosen now. */
export async function confirmBypass(sandboxed: boolean): Promise<boolean> {
  if (sandboxed) return true;
  const answer = await askConfirm({
    title: 'Bypass permissions outside a sandbox?',
    body: [
      'Claude will run every command and edit every file without asking, as you: your SSH keys, your other projects and the network are all within its reach.',
      h('p', { class: 'muted' }, 'A sandboxed session (New session → Sandbox) keeps it to its folder; there bypass is safe to use.'),
    ],
    confirm: 'Bypass permissions',
    danger: true,
  });
  return answer.ok;
}
