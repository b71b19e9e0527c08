// The message box: Enter sends, Shift+Enter adds a line (on touch screens,
// whose keyboards have no Shift+Enter, Enter adds a line and Send sends);
// Cancel (and Escape, handled by the pane) while a turn runs; the agent's
// activity next to it. The box grows with its text up to maxHeightPx.
// Disabled with a hint while the socket is down or the worker is read-only;
// focus asked for meanwhile is given when it becomes usable.
import { h, setText } from '../../dom';
import type { Activity } from '../../types';
import { AttachTray, type OutAttachment } from './attach-tray';

export interface ComposerActions {
  /**
   * Sends a user message; false when it could not be sent (not connected).
   * when: 'queue' (Send while a turn runs), 'now' (Steer now), or none (idle).
   */
  send(text: string, when?: 'now' | 'queue', attachments?: OutAttachment[]): boolean;
  /** Queues a message with files (POST …/input, when queue); resolves once the server stored it. */
  queueFiles?(text: string, attachments: OutAttachment[]): Promise<unknown>;
  cancel(): void;
  /** Who the messages go to, for the placeholder (absent: Claude). */
  agent?: string;
}

const activityText: Record<Activity, string> = {
  active: 'working…',
  asking: 'waiting for you',
  stalled: 'stalled: no progress',
  idle: 'idle',
};

/** True on a touch screen without a fine pointer (a phone or tablet). */
function touchScreen(): boolean {
  return matchMedia('(pointer: coarse)').matches && !matchMedia('(any-pointer: fine)').matches;
}

/** Tallest the box grows before it scrolls, in pixels. */
const maxHeightPx = 220;
let nextId = 0;

export class Composer {
  readonly el: HTMLFormElement;
  readonly input: HTMLTextAreaElement;
  private readonly sendBtn: HTMLButtonElement;
  private readonly cancelBtn: HTMLButtonElement;
  private readonly steerBtn: HTMLButtonElement;
  private readonly activityEl: HTMLElement;
  private readonly hint: HTMLElement;
  /** Files to send with the next message (attach-tray.ts). */
  readonly tray: AttachTray;
  private connected = false;
  private readOnly: string | null = null;
  private activity: Activity | null = null;
  /** focus() was called while the box was disabled. */
  private wantFocus = false;
  /** Files on their way to the queue: sending waits for the server's answer. */
  private queueing = false;

  constructor(private readonly actions: ComposerActions) {
    const hintId = `chat-hint-${++nextId}`;
    this.input = h('textarea', {
      class: 'chat-input', rows: 1, placeholder: `Message ${actions.agent ?? 'Claude'}…`, 'aria-label': 'Message',
      'aria-describedby': hintId, spellcheck: 'true', enterkeyhint: touchScreen() ? 'enter' : 'send',
    });
    this.sendBtn = h('button', { class: 'btn btn-primary chat-send', type: 'submit' }, 'Send');
    this.cancelBtn = h('button', { class: 'btn chat-cancel', type: 'button', hidden: true, title: 'Interrupt the running turn (Escape)' }, 'Cancel');
    this.steerBtn = h('button', { class: 'btn chat-steer', type: 'button', hidden: true, title: 'Send into the running turn now (Ctrl+Enter)' }, 'Steer now');
    this.activityEl = h('span', { class: 'chat-activity', role: 'status' });
    this.hint = h('span', { class: 'chat-hint', id: hintId });
    this.tray = new AttachTray(() => this.render());
    this.el = h('form', { class: 'chat-composer' }, this.tray.el,
      h('div', { class: 'chat-compose-row' }, this.tray.button, this.input, h('div', { class: 'chat-buttons' }, this.cancelBtn, this.steerBtn, this.sendBtn)),
      h('div', { class: 'chat-compose-foot' }, this.activityEl, this.hint));
    this.el.addEventListener('submit', (ev) => {
      ev.preventDefault();
      this.submit();
    });
    this.cancelBtn.addEventListener('click', () => this.actions.cancel());
    this.steerBtn.addEventListener('click', () => this.submit('now'));
    this.input.addEventListener('keydown', (ev) => this.onKey(ev));
    this.input.addEventListener('input', () => this.autosize());
    this.render();
  }

  setConnected(ok: boolean): void {
    this.connected = ok;
    this.render();
  }

  /** reason non-null: the worker only shows history (stopped), say why. */
  setReadOnly(reason: string | null): void {
    this.readOnly = reason;
    this.render();
  }

  setActivity(a: Activity | null): void {
    this.activity = a;
    this.render();
  }

  /** True while a turn runs (Cancel is offered). */
  get busy(): boolean {
    return this.activity === 'active' || this.activity === 'asking' || this.activity === 'stalled';
  }

  focus(): void {
    if (!this.input.disabled) this.input.focus();
    else this.wantFocus = true;
  }

  private onKey(ev: KeyboardEvent): void {
    if (ev.key === 'Enter' && (ev.ctrlKey || ev.metaKey) && !ev.shiftKey && !ev.altKey && this.busy) {
      ev.preventDefault();
      this.submit('now');
      return;
    }
    if (ev.key !== 'Enter' || ev.shiftKey || ev.altKey || ev.ctrlKey || ev.metaKey || ev.isComposing || touchScreen()) return;
    ev.preventDefault();
    this.submit();
  }

  private submit(when?: 'now'): void {
    const text = this.input.value;
    const files = this.tray.count;
    if ((text.trim() === '' && files === 0) || this.tray.busy || this.queueing || !this.connected || this.readOnly !== null) return;
    const w = when ?? (this.busy ? 'queue' : undefined);
    if (files > 0 && w === 'queue' && this.actions.queueFiles !== undefined) {
      this.queueFiles(this.actions.queueFiles(text, this.tray.take()), text);
      return;
    }
    if (!this.actions.send(text, w, files > 0 ? this.tray.take() : undefined)) return;
    this.tray.clear();
    this.input.value = '';
    this.autosize();
  }

  /** The files leave the composer once the server stored them; on an error they stay, with its message. */
  private queueFiles(p: Promise<unknown>, text: string): void {
    this.queueing = true;
    p.then(() => {
      this.tray.clear();
      if (this.input.value === text) {
        this.input.value = '';
        this.autosize();
      }
    }, (err: unknown) => this.tray.showError(err instanceof Error ? err.message : String(err)))
      .finally(() => { this.queueing = false; });
  }

  private autosize(): void {
    this.input.style.height = 'auto';
    if (this.input.value !== '') this.input.style.height = `${Math.min(this.input.scrollHeight + 2, maxHeightPx)}px`;
  }

  private render(): void {
    if (this.tray === undefined) return; // called by the tray while it is built
    const usable = this.connected && this.readOnly === null;
    const hadFocus = document.activeElement === this.input;
    this.input.disabled = !usable;
    this.sendBtn.disabled = !usable;
    this.tray.button.disabled = !usable;
    this.el.dataset.disabled = String(!usable);
    const free = document.activeElement === null || document.activeElement === document.body;
    if (usable && (hadFocus || (this.wantFocus && free))) this.input.focus();
    if (usable) this.wantFocus = false;
    this.cancelBtn.hidden = !this.busy || !usable;
    this.steerBtn.hidden = !this.busy || !usable;
    setText(this.sendBtn, this.busy ? 'Queue' : 'Send');
    this.sendBtn.title = this.busy ? 'Send after this turn ends (it waits in the queue)' : '';
    setText(this.activityEl, this.activity === null ? '' : activityText[this.activity]);
    this.activityEl.dataset.activity = this.activity ?? '';
    let hint = touchScreen() ? 'Send sends · Enter adds a line' : 'Enter to send · Shift+Enter for a new line';
    if (this.readOnly !== null) hint = this.readOnly;
    else if (!this.connected) hint = 'Not connected to the server: sending is paused until it reconnects.';
    else if (this.busy) hint = 'Queue sends it after this turn · Steer now (Ctrl+Enter) sends it into this turn · Escape interrupts';
    setText(this.hint, hint);
  }
}
