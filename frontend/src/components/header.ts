// Top bar: the app name (a link home) and the /ws/app connection indicator.
import { h } from '../dom';
import type { SocketState } from '../ws';

const labels: Record<SocketState, string> = {
  connecting: 'connecting…',
  open: 'connected',
  reconnecting: 'reconnecting…',
  offline: 'offline',
  stopped: 'offline',
  closed: 'offline',
};

export class Header {
  readonly el: HTMLElement;
  private readonly conn: HTMLElement;

  constructor(onHome: (ev: MouseEvent) => void) {
    this.conn = h('span', { class: 'conn', role: 'status', 'aria-live': 'polite', title: 'Live updates from the server' });
    this.el = h(
      'header',
      { class: 'topbar' },
      h('a', { class: 'brand', href: '/', onClick: onHome }, 'agentdesk'),
      h('span', { class: 'spacer' }),
      h('span', { class: 'shortcut-hint', 'aria-hidden': 'true' }, 'Alt+N new session · Alt+T terminal · Alt+1…9 tabs · Alt+S sessions · Alt+P pane · Alt+J chat ⇄ terminal'),
      this.conn,
    );
    this.setState('connecting');
  }

  setState(s: SocketState): void {
    this.conn.dataset.state = s === 'stopped' || s === 'closed' ? 'offline' : s;
    this.conn.textContent = labels[s];
  }
}
