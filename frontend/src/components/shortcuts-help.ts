// The top bar's "Shortcuts" disclosure: every keyboard shortcut of the app
// in one list (the palette's Ctrl+K among them), instead of a line of hints
// that the top bar had to cut short. A <details>: it opens with Enter or a
// click, Escape or a click elsewhere closes it.
import { h } from '../dom';
import '../styles/shortcuts.css';

/** The shortcuts, as the key handlers (shortcuts.ts, chat-find.ts) define them. */
export const shortcutList: readonly (readonly [keys: string, what: string])[] = [
  ['Ctrl+K', 'Search every conversation'],
  ['Ctrl+F', 'Find in this chat'],
  ['Alt+N', 'New session'],
  ['Alt+T', 'New shell'],
  ['Alt+1…9', 'Go to tab 1…9'],
  ['Alt+S', 'Go to the sessions list'],
  ['Alt+↑ / Alt+↓', 'Previous / next session'],
  ['Alt+P', 'Go to the open tab'],
  ['Alt+J', 'Move the conversation between chat and terminal'],
];

export class ShortcutsHelp {
  readonly el: HTMLDetailsElement;

  constructor() {
    const list = h('dl', { class: 'shortcuts-list' },
      ...shortcutList.flatMap(([keys, what]) => [h('dt', null, h('kbd', null, keys)), h('dd', null, what)]));
    this.el = h('details', { class: 'shortcuts' },
      h('summary', { class: 'btn btn-small', title: 'Keyboard shortcuts' }, 'Shortcuts'), list) as HTMLDetailsElement;
    this.el.addEventListener('keydown', (ev) => {
      if (ev.key !== 'Escape' || !this.el.open) return;
      ev.preventDefault();
      this.el.open = false;
      this.el.querySelector('summary')?.focus();
    });
    document.addEventListener('pointerdown', (ev) => {
      if (this.el.open && !this.el.contains(ev.target as Node)) this.el.open = false;
    });
  }
}
