// The key bar of terminal and pty-agent panes: the keys a phone keyboard
// lacks. Esc, Tab, Shift+Tab (Claude Code's mode cycle), a sticky Ctrl (the
// next key, from the bar or the keyboard, goes as a control character),
// the arrows (in the cursor mode the program asked for), and | ~ /.
// Pressing a key does not take the focus from the terminal, so the
// on-screen keyboard stays open.
import { h } from '../dom';

export interface KeyBarHost {
  /** Sends bytes to the program as if typed. */
  send(data: string): void;
  /** True when the program switched the arrows to application mode (ESC O A). */
  appCursor(): boolean;
  /** Gives the focus back to the terminal. */
  focus(): void;
}

const arrows: Record<string, string> = { '←': 'D', '↑': 'A', '↓': 'B', '→': 'C' };
const arrowNames: Record<string, string> = { '←': 'Left', '↑': 'Up', '↓': 'Down', '→': 'Right' };

/** The control character for c (Ctrl+C is "\x03"), or c itself when it has none. */
export function ctrlChar(c: string): string {
  if (c.length !== 1) return c;
  if (c === '?') return '\x7f';
  if (c === ' ') return '\x00';
  const code = c.toUpperCase().charCodeAt(0);
  return code >= 64 && code <= 95 ? String.fromCharCode(code - 64) : c;
}

export class KeyBar {
  readonly el: HTMLElement;
  private readonly ctrlBtn: HTMLButtonElement;
  private ctrl = false;

  constructor(private readonly host: KeyBarHost) {
    this.ctrlBtn = this.key('Ctrl', 'Ctrl (Control, applies to the next key)', () => this.setCtrl(!this.ctrl));
    this.ctrlBtn.setAttribute('aria-pressed', 'false');
    const keys = [
      this.key('Esc', 'Esc (Escape)', () => this.press('\x1b')),
      this.key('Tab', 'Tab', () => this.press('\t')),
      this.key('⇧Tab', 'Shift+Tab (Claude Code: next mode)', () => this.press('\x1b[Z')),
      this.ctrlBtn,
      ...Object.keys(arrows).map((a) => this.key(a, arrowNames[a] ?? a, () => this.arrow(a))),
      ...['|', '~', '/'].map((c) => this.key(c, c, () => this.press(this.ctrl ? ctrlChar(c) : c))),
    ];
    this.el = h('div', { class: 'keybar', role: 'toolbar', 'aria-label': 'Terminal keys' }, ...keys);
  }

  /** Typed input passes here: a sticky Ctrl turns its first character into a control character. */
  transform(data: string): string {
    if (!this.ctrl || data === '') return data;
    this.setCtrl(false);
    return ctrlChar(data.slice(0, 1)) + data.slice(1);
  }

  private key(label: string, name: string, onPress: () => void): HTMLButtonElement {
    const b = h('button', { class: 'btn key', type: 'button', 'aria-label': name, title: name }, label);
    // Keep the focus (and the on-screen keyboard) in the terminal.
    b.addEventListener('pointerdown', (ev) => ev.preventDefault());
    b.addEventListener('click', onPress);
    return b;
  }

  private press(data: string): void {
    this.setCtrl(false);
    this.host.send(data);
  }

  private arrow(a: string): void {
    const final = arrows[a] ?? 'A';
    if (this.ctrl) this.press(`\x1b[1;5${final}`);
    else this.press((this.host.appCursor() ? '\x1bO' : '\x1b[') + final);
  }

  private setCtrl(on: boolean): void {
    this.ctrl = on;
    this.ctrlBtn.setAttribute('aria-pressed', String(on));
  }
}
