// A button that opens a menu of buttons below it (role=menu): arrow keys,
// Home/End move, Escape closes and returns to the button, a click outside
// closes. Used by the "+" (add worker) and "History" menus of the tab bar.
import { h } from '../dom';

export class MenuButton {
  readonly el: HTMLElement;
  private readonly menu: HTMLElement;
  private items: HTMLButtonElement[] = [];
  private readonly onDocDown = (ev: Event): void => {
    if (!this.el.contains(ev.target as Node)) this.close(false);
  };

  constructor(readonly button: HTMLButtonElement, label: string) {
    button.setAttribute('aria-haspopup', 'menu');
    button.setAttribute('aria-expanded', 'false');
    this.menu = h('div', { class: 'menu', role: 'menu', hidden: true, 'aria-label': label });
    this.el = h('div', { class: 'menu-wrap' }, button, this.menu);
    button.addEventListener('click', () => (this.menu.hidden ? this.open() : this.close(true)));
    button.addEventListener('keydown', (ev) => {
      if (ev.key === 'ArrowDown') {
        ev.preventDefault();
        this.open();
      }
    });
    this.menu.addEventListener('keydown', (ev) => this.onMenuKey(ev));
  }

  /** Replaces the menu's entries (buttons with class menu-item). */
  setItems(items: HTMLButtonElement[], extra: HTMLElement[] = []): void {
    for (const it of items) {
      it.setAttribute('role', 'menuitem');
      it.tabIndex = -1;
    }
    this.items = items;
    this.menu.replaceChildren(...extra, ...items);
  }

  get isOpen(): boolean {
    return !this.menu.hidden;
  }

  open(): void {
    this.menu.hidden = false;
    this.button.setAttribute('aria-expanded', 'true');
    this.items[0]?.focus();
    document.addEventListener('pointerdown', this.onDocDown);
  }

  close(focusButton: boolean): void {
    this.menu.hidden = true;
    this.button.setAttribute('aria-expanded', 'false');
    document.removeEventListener('pointerdown', this.onDocDown);
    if (focusButton) this.button.focus();
  }

  dispose(): void {
    document.removeEventListener('pointerdown', this.onDocDown);
  }

  private onMenuKey(ev: KeyboardEvent): void {
    const i = this.items.indexOf(document.activeElement as HTMLButtonElement);
    let next = -1;
    if (ev.key === 'ArrowDown') next = (i + 1) % this.items.length;
    else if (ev.key === 'ArrowUp') next = (i - 1 + this.items.length) % this.items.length;
    else if (ev.key === 'Home') next = 0;
    else if (ev.key === 'End') next = this.items.length - 1;
    else if (ev.key === 'Escape' || ev.key === 'Tab') {
      if (ev.key === 'Escape') {
        ev.preventDefault();
        ev.stopPropagation();
      }
      this.close(ev.key === 'Escape');
      return;
    } else return;
    ev.preventDefault();
    this.items[next]?.focus();
  }
}
