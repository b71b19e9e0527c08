// What surrounds the terminal of a terminal or pty-agent pane: the pane's
// header (its name, the connection pill, the key bar toggle), the
// "starting…" cover shown until the program draws its first character
// (Claude's TUI takes seconds to appear), and the key bar itself, shown by
// default on touch screens. None of it covers terminal text.
import type { Terminal } from '@xterm/xterm';
import { h, setText } from '../dom';
import { workerKind, workerLabel } from '../kinds';
import type { Worker } from '../types';
import type { SocketState } from '../ws';
import { KeyBar, type KeyBarHost } from './keybar';

const keybarKey = 'agentdesk.keybar';

/** Whether the key bar starts shown: the saved choice, else on touch screens. */
function keybarDefault(): boolean {
  try {
    const v = localStorage.getItem(keybarKey);
    if (v === '1' || v === '0') return v === '1';
  } catch {
    // storage blocked: decide by the device
  }
  return matchMedia('(pointer: coarse)').matches || navigator.maxTouchPoints > 0;
}

export class TermChrome {
  readonly bar: HTMLElement;
  readonly cover: HTMLElement;
  readonly keybar: KeyBar;
  private readonly status: HTMLElement;
  private readonly toggle: HTMLButtonElement;
  private keysWanted = keybarDefault();
  private readOnly = false;

  constructor(worker: Worker, host: KeyBarHost) {
    this.status = h('span', { class: 'status-pill term-status', role: 'status' });
    this.toggle = h('button', { class: 'btn btn-small keys-toggle', type: 'button', title: 'Show the key bar: Esc, Tab, Ctrl, arrows…', onClick: () => {
      this.setKeys(!this.keysWanted, true);
      host.focus(); // back to typing
    } }, '⌨ Keys');
    const info = workerKind(worker);
    const title = info.paneTitle ?? workerLabel(worker);
    this.bar = h('div', { class: 'pane-bar term-bar' }, h('span', { class: 'pane-bar-title' }, title), this.toggle, this.status);
    const what = info.startingText;
    this.cover = h('div', { class: 'term-starting', role: 'status' }, h('div', { class: 'spinner', 'aria-hidden': 'true' }), h('div', null, what));
    this.keybar = new KeyBar(host);
    this.setKeys(this.keysWanted, false);
  }

  setStatus(text: string, state: string): void {
    setText(this.status, text);
    this.status.dataset.state = state;
  }

  /** The program drew something (or ended): the starting cover goes for good. */
  started(): void {
    this.cover.hidden = true;
  }

  get starting(): boolean {
    return !this.cover.hidden;
  }

  /** Drops the starting cover once the screen shows a character (the program's first drawing). */
  checkStarted(term: Terminal): void {
    if (!this.starting) return;
    const buf = term.buffer.active;
    for (let y = 0; y < Math.min(buf.length, 500); y++) {
      if ((buf.getLine(y)?.translateToString(true) ?? '').trim() !== '') {
        this.started();
        return;
      }
    }
  }

  setReadOnly(on: boolean): void {
    this.readOnly = on;
    this.toggle.hidden = on;
    this.setKeys(this.keysWanted, false);
  }

  private setKeys(on: boolean, save: boolean): void {
    this.keysWanted = on;
    this.keybar.el.hidden = !on || this.readOnly;
    this.toggle.setAttribute('aria-pressed', String(on));
    if (!save) return;
    try {
      localStorage.setItem(keybarKey, on ? '1' : '0');
    } catch {
      // storage blocked: the choice lasts for this pane
    }
  }
}

/** The pill's text and state for a socket state (replaying: the history is still coming). */
export function socketStatus(s: SocketState, replaying: boolean): [string, string] {
  switch (s) {
    case 'open':
      return replaying ? ['loading…', 'connecting'] : ['live', 'open'];
    case 'connecting':
      return ['connecting…', 'connecting'];
    case 'reconnecting':
      return ['reconnecting…', 'reconnecting'];
    case 'offline':
      return ['offline, retrying…', 'offline'];
    default:
      return ['disconnected', 'offline'];
  }
}
