// A sandboxed session's badge in the session header and, under it, the panel
// of what its box shows (the Session's sandboxView): the folders it writes and
// reads, what is private to it, what is hidden, and its network. The badge is
// a disclosure button; Escape or the button closes the panel.
import { h, setText } from '../dom';
import type { Session, SandboxView } from '../types';
import '../styles/sandbox.css';

const levelNames: Record<string, string> = { workspace: 'Sandboxed', 'workspace+net': 'Sandboxed + net' };

export class SandboxBadge {
  /** The badge, for the header row. */
  readonly badge: HTMLButtonElement;
  /** The panel, for under the header. */
  readonly panel: HTMLElement;
  private view: SandboxView | null = null;

  constructor() {
    this.badge = h('button', { class: 'sandbox-badge', type: 'button', hidden: true, 'aria-expanded': 'false', 'aria-controls': 'sandbox-panel' });
    this.panel = h('section', { class: 'sandbox-panel', id: 'sandbox-panel', hidden: true, 'aria-label': 'What the sandbox shows' });
    this.badge.addEventListener('click', () => this.toggle(this.panel.hidden));
    const escape = (ev: KeyboardEvent): void => {
      if (ev.key !== 'Escape' || this.panel.hidden) return;
      ev.preventDefault();
      this.toggle(false);
      this.badge.focus();
    };
    this.badge.addEventListener('keydown', escape);
    this.panel.addEventListener('keydown', escape);
  }

  update(session: Session): void {
    const v = session.sandboxView ?? null;
    this.view = v;
    this.badge.hidden = v === null;
    if (v === null) {
      this.toggle(false);
      return;
    }
    setText(this.badge, levelNames[v.level] ?? v.level);
    this.badge.title = v.network === 'host'
      ? 'Sandboxed, with the host network: show what the box sees'
      : 'Sandboxed: only this folder and the model API: show what the box sees';
    if (!this.panel.hidden) this.render();
  }

  private toggle(open: boolean): void {
    if (open && this.view === null) return;
    this.panel.hidden = !open;
    this.badge.setAttribute('aria-expanded', String(open));
    if (open) this.render();
  }

  private render(): void {
    const v = this.view;
    if (v === null) return;
    const list = (paths: string[] | null) => h('ul', { class: 'sandbox-paths' }, ...(paths ?? []).map((p) => h('li', null, h('code', null, p))));
    const hidden = v.hidden ?? [];
    const network = v.network === 'host'
      ? 'The host network, shared: the box reaches what this machine reaches.'
      : 'Loopback only: nothing but the model API, through agentdesk.';
    const parts: (Node | null)[] = [
      h('h3', null, `Sandbox: ${v.level}`),
      h('p', { class: 'muted' }, 'Every process of this session (the agent, its tools, the terminals, the setup command) runs in this box (bubblewrap).'),
      h('h4', null, 'Writable'), list(v.writable),
      h('h4', null, 'Read-only'), list(v.readOnly),
      h('h4', null, 'Private to the box, empty at start'), list(v.private),
      hidden.length > 0 ? h('details', null, h('summary', null, `Hidden: ${hidden.length} system files only their owner may read`), list(hidden)) : null,
      h('h4', null, 'Network'), h('p', { class: 'sandbox-network', 'data-network': v.network }, network),
      (v.endpoints ?? []).length > 0 ? list(v.endpoints) : null,
      h('button', { class: 'btn btn-small', type: 'button', onClick: () => { this.toggle(false); this.badge.focus(); } }, 'Close')];
    this.panel.replaceChildren(...parts.filter((p): p is Node => p !== null));
  }
}
