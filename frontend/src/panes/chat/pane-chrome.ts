// The chat pane's controls around the conversation, built and wired in one
// place (split out of pane.ts): the bar (live settings, usage total, export,
// connection pill), the queue panel, and the composer with its file
// completion. The pane keeps the conversation and the socket.
import { errorMessage } from '../../api';
import { workerKind } from '../../kinds';
import { h, setText } from '../../dom';
import { ChatUsage } from '../../usage/chat-strip';
import type { Worker } from '../../types';
import type { SocketState } from '../../ws';
import type { PaneContext } from '../registry';
import type { OutAttachment } from './attach-tray';
import type { Banner } from './banner';
import { apiSource } from './complete-source';
import { Completion } from './completion';
import { Composer } from './composer';
import { modesOf } from './modes';
import { exportMenu } from './export-menu';
import { QueuePanel, type QueueActions } from './queue-panel';
import { SettingsBar } from './settings-bar';
import { AgentButton } from '../../tools/agent-dialog';

const stateText: Record<SocketState, string> = {
  connecting: 'connecting…',
  open: 'live',
  reconnecting: 'reconnecting…',
  offline: 'offline, retrying…',
  stopped: 'disconnected',
  closed: 'disconnected',
};

/** What the composer asks of the pane. */
export interface ChromeHooks {
  send(text: string, when?: 'now' | 'queue', files?: OutAttachment[]): boolean;
  cancel(): void;
}

export class ChatChrome {
  readonly settings: SettingsBar;
  readonly composer: Composer;
  readonly queue: QueuePanel;
  readonly usage: ChatUsage;
  /** Limits, prompt, MCP servers and tools (tools/agent-dialog.ts). */
  readonly agent: AgentButton;
  /** The pane bar: title, settings, usage total, export, connection pill. */
  readonly bar: HTMLElement;
  private readonly connEl = h('span', { class: 'status-pill chat-conn', role: 'status' });

  constructor(ctx: PaneContext, banner: Banner, hooks: ChromeHooks, worker: () => Worker) {
    this.settings = new SettingsBar(ctx.api, ctx.session.id, ctx.worker, (msg) => banner.show('settings', msg));
    this.settings.update(ctx.worker, ctx.session);
    this.composer = new Composer({ send: hooks.send, cancel: hooks.cancel, agent: modesOf(ctx.worker.agent).owner,
      queueFiles: (content, attachments) =>
        ctx.api.request('POST', ctx.api.workerPath(ctx.session.id, ctx.worker.id) + '/input', { content, when: 'queue', attachments }) });
    new Completion(this.composer.input, this.composer.el, apiSource(ctx.api, ctx.session.id, ctx.worker.id));
    this.queue = new QueuePanel(queueActions(ctx, (err) => banner.show('queue', errorMessage(err))));
    this.usage = new ChatUsage(ctx);
    this.agent = new AgentButton(ctx.api, ctx.session.id, worker);
    this.bar = h('div', { class: 'pane-bar chat-bar' }, h('span', { class: 'pane-bar-title chat-bar-title' }, workerKind(ctx.worker).startLabel ?? 'Chat'),
      this.settings.el, this.agent.el, this.usage.total, exportMenu(ctx.api.workerPath(ctx.session.id, ctx.worker.id)), this.connEl);
  }

  /** Shows the socket state ("loading…" while the history replays); returns the pane's data-conn value. */
  renderConn(s: SocketState, replaying: boolean): string {
    const loading = s === 'open' && replaying;
    setText(this.connEl, loading ? 'loading…' : stateText[s]);
    this.connEl.dataset.state = loading ? 'connecting' : s;
    return loading ? 'loading' : s;
  }

  dispose(): void {
    this.settings.dispose();
    this.usage.dispose();
  }
}

/** The REST path of the worker's stored messages (API.md). */
export function messagesPath(ctx: PaneContext): string {
  return `/api/sessions/${encodeURIComponent(ctx.session.id)}/workers/${encodeURIComponent(ctx.worker.id)}/messages`;
}

/** The queue panel's REST calls (docs/api-extensions.md, "Queue"). */
function queueActions(ctx: PaneContext, failed: (err: unknown) => void): QueueActions {
  const path = (id: string): string =>
    `/api/sessions/${encodeURIComponent(ctx.session.id)}/workers/${encodeURIComponent(ctx.worker.id)}/queue/${encodeURIComponent(id)}`;
  return {
    edit: (id, change) => ctx.api.request('PATCH', path(id), change),
    remove: (id) => ctx.api.request('DELETE', path(id)),
    failed,
  };
}
