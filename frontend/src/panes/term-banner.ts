// The line under a terminal pane: why it stopped ("[process exited with
// code N]" plus the worker's error, with Restart for a shell), a message the
// server sent, or why the terminal is read-only.
import { h } from '../dom';
import type { Worker } from '../types';
import type { SocketState } from '../ws';
import { socketStatus } from './term-chrome';

export interface ExitStatus {
  code: number | null;
  signal: string | number | null;
}

/** "[process exited with code N]", "[process killed by signal S]", plus the worker's error. */
export function exitText({ code, signal }: ExitStatus, worker: Worker): string {
  let what = 'exited';
  if (signal !== null && signal !== undefined && signal !== '') what = `killed by signal ${signal}`;
  else if (code !== null && code !== undefined) what = `exited with code ${code}`;
  return `[process ${what}]${worker.error ? ` ${worker.error}` : ''}`;
}

export class TermBanner {
  readonly el = h('div', { class: 'term-banner', hidden: true });

  /** Shows text, with a Restart button when onRestart is given. */
  show(text: string, onRestart?: () => void): void {
    if (!this.el.hidden && this.el.firstChild?.textContent === text) return; // keep the button's focus
    const children: (HTMLElement | string)[] = [text];
    if (onRestart) children.push(' — ', h('button', { class: 'btn btn-small', type: 'button', onClick: onRestart }, 'Restart'));
    this.el.replaceChildren(...children);
    this.el.hidden = false;
  }

  clear(): void {
    this.el.hidden = true;
    this.el.replaceChildren();
  }
}

/** The header's status text and state: exited, read-only, or the socket's. */
export function paneStatus(s: SocketState, exited: boolean, readOnly: boolean, replaying: boolean): [string, string] {
  if (exited && (s === 'stopped' || s === 'open')) return ['exited', 'exited'];
  if (readOnly && !replaying) return ['stopped (read-only)', 'exited'];
  return socketStatus(s, replaying);
}
