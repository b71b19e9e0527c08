// The chat's "Agent" button and dialog: the worker's limits and prompt, and
// the session's MCP servers and tools (limits-panel.ts, mcp-panel.ts).
import type { Api } from '../api';
import { h } from '../dom';
import type { Worker } from '../types';
import { LimitsPanel } from './limits-panel';
import { McpPanel } from './mcp-panel';
import './agent.css';

export class AgentButton {
  readonly el: HTMLButtonElement;

  constructor(private readonly api: Api, private readonly sid: string, private worker: () => Worker) {
    this.el = h('button', { class: 'btn btn-small agent-btn', type: 'button', 'aria-haspopup': 'dialog', title: 'Limits, prompt, MCP servers and tools' }, 'Agent');
    this.el.addEventListener('click', () => this.open());
  }

  /** Opens the dialog (the limits first when focusLimits). */
  open(focusLimits = false): void {
    const close = h('button', { class: 'btn', type: 'button' }, 'Close');
    const limits = new LimitsPanel(this.api, this.sid, this.worker(), () => {});
    const dialog = h('dialog', { class: 'app-dialog agent-dialog', 'aria-label': 'Agent settings' },
      h('div', { class: 'agent-dialog-head' }, h('h2', null, 'Agent'), close),
      limits.el, new McpPanel(this.api, this.sid).el);
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    close.addEventListener('click', () => dialog.close());
    dialog.addEventListener('close', () => {
      dialog.remove();
      if (opener?.isConnected) opener.focus();
    }, { once: true });
    document.body.append(dialog);
    dialog.showModal();
    (focusLimits ? limits.el.querySelector<HTMLElement>('input[name="maxBudgetUsd"]') : close)?.focus();
  }
}
