// The "+" menu of a session's tab bar: pick a worker kind to add.
import { h } from '../dom';
import type { WorkerKind } from '../types';

const choices: { kind: WorkerKind; label: string }[] = [
  { kind: 'terminal', label: 'Terminal' },
  { kind: 'sdk', label: 'Claude chat' },
  { kind: 'pty-agent', label: 'Claude in a terminal' },
  { kind: 'git-diff', label: 'Git diff' },
];

export class AddWorkerMenu {
  readonly el: HTMLElement;
  private readonly button: HTMLButtonElement;
  private readonly menu: HTMLElement;
  private readonly items: HTMLButtonElement[];
  private readonly onDocClick = (ev: MouseEvent): void => {
    if (!this.el.contains(ev.target as Node)) this.close(false);
  };

  constructor(private readonly onPick: (kind: WorkerKind) => void) {
    this.button = h('button', { class: 'icon-btn add-worker', type: 'button', 'aria-haspopup': 'menu', 'aria-expanded': 'false', 'aria-label': 'Add worker', title: 'Add worker (Alt+T: terminal)' }, '+');
    this.items = choices.map((c) =>
      h('button', { class: 'menu-item', type: 'button', role: 'menuitem', tabindex: '-1', 'data-kind': c.kind, onClick: () => this.pick(c.kind) }, c.label));
    this.menu = h('div', { class: 'menu', role: 'menu', hidden: true, 'aria-label': 'Add worker' }, ...this.items);
    this.el = h('div', { class: 'add-worker-wrap' }, this.button, this.menu);
    this.button.addEventListener('click', () => (this.menu.hidden ? this.open() : this.close(true)));
    this.button.addEventListener('keydown', (ev) => {
      if (ev.key === 'ArrowDown') {
        ev.preventDefault();
        this.open();
      }
    });
    this.menu.addEventListener('keydown', (ev) => this.onMenuKey(ev));
  }

  open(): void {
    this.menu.hidden = false;
    this.button.setAttribute('aria-expanded', 'true');
    this.items[0]?.focus();
    document.addEventListener('mousedown', this.onDocClick);
  }

  close(focusButton: boolean): void {
    this.menu.hidden = true;
    this.button.setAttribute('aria-expanded', 'false');
    document.removeEventListener('mousedown', this.onDocClick);
    if (focusButton) this.button.focus();
  }

  dispose(): void {
    document.removeEventListener('mousedown', this.onDocClick);
  }

  private pick(kind: WorkerKind): void {
    this.close(false);
    this.onPick(kind);
  }

  private onMenuKey(ev: KeyboardEvent): void {
    const i = this.items.indexOf(document.activeElement as HTMLButtonElement);
    let next = -1;
    if (ev.key === 'ArrowDown') next = (i + 1) % this.items.length;
    else if (ev.key === 'ArrowUp') next = (i - 1 + this.items.length) % this.items.length;
    else if (ev.key === 'Home') next = 0;
    else if (ev.key === 'End') next = this.items.length - 1;
    else if (ev.key === 'Escape' || ev.key === 'Tab') {
      if (ev.key === 'Escape') ev.preventDefault();
      this.close(ev.key === 'Escape');
      return;
    } else return;
    ev.preventDefault();
    this.items[next]?.focus();
  }
}
