// The button that moves a session's Claude conversation between the chat (an
// sdk worker) and Claude's own terminal UI (a pty-agent worker): "Open in
// terminal" while the chat drives it, "Back to chat" while the terminal does.
// Every switch makes a new worker (API.md POST /api/sessions/:sid/switch); the
// previous one stays, read-only, in the tab bar's History menu.
import { ApiError, errorMessage, type Api } from '../api';
import { h } from '../dom';
import { askConfirm } from './dialog';
import { kindInfo, workerKind, type KindInfo } from '../kinds';
import type { Session, Worker } from '../types';

export interface SwitchDeps {
  api: Api;
  /** The new worker exists: show its tab. */
  switched(w: Worker): void;
  /** Something went wrong (shown by the session view). */
  failed(message: string): void;
}

/** The kind the session's conversation can move to, or null when no agent drives it. */
export function switchTarget(s: Session): KindInfo | null {
  const active = s.workers.find((w) => w.id === s.activeAgentWorkerId);
  if (active === undefined || active.status === 'stopped') return null;
  const to = workerKind(active).switchTo;
  return to === undefined ? null : kindInfo(to);
}

export class SwitchControl {
  readonly el: HTMLButtonElement;
  private session: Session | null = null;
  private busy = false;

  constructor(private readonly deps: SwitchDeps) {
    this.el = h('button', { class: 'btn btn-small switch-agent', type: 'button', hidden: true, onClick: () => void this.run() });
  }

  update(s: Session): void {
    this.session = s;
    const to = switchTarget(s);
    this.el.hidden = to === null;
    if (to === null) return;
    this.el.textContent = to.switchHere?.label ?? `Open as ${to.label}`;
    this.el.title = `${to.switchHere?.title ?? `Continue this conversation as ${to.label}`} (Alt+J)`;
    this.el.dataset.to = to.kind;
    this.el.disabled = this.busy;
  }

  /** Switches (Alt+J and the button). A running turn is interrupted only after a confirm. */
  async run(): Promise<void> {
    const s = this.session;
    const to = s === null ? null : switchTarget(s);
    if (s === null || to === null || this.busy) return;
    this.setBusy(true);
    try {
      this.deps.switched(await this.request(s.id, to.kind));
    } catch (err) {
      if (!(err instanceof Cancelled)) this.deps.failed(`Could not switch: ${errorMessage(err)}`);
    } finally {
      this.setBusy(false);
    }
  }

  private async request(sid: string, to: string): Promise<Worker> {
    try {
      return await this.deps.api.switchAgent(sid, to);
    } catch (err) {
      if (!(err instanceof ApiError && err.code === 'agent_busy')) throw err;
      const answer = await askConfirm({
        title: 'Claude is in the middle of a turn',
        body: ['Switching now interrupts the running turn; what Claude did so far stays in the conversation.'],
        confirm: 'Interrupt and switch',
        cancel: 'Keep working',
      });
      if (!answer.ok) throw new Cancelled();
      return this.deps.api.switchAgent(sid, to, true);
    }
  }

  private setBusy(on: boolean): void {
    this.busy = on;
    this.el.disabled = on;
    this.el.setAttribute('aria-busy', String(on));
  }
}

/** The user declined to interrupt the running turn. */
class Cancelled extends Error {}
