// The "+" menu of a session's tab bar: pick a worker kind to add.
import { h } from '../dom';
import { addableKinds } from '../kinds';
import type { WorkerKind } from '../types';
import { MenuButton } from './menu-button';

export class AddWorkerMenu {
  readonly el: HTMLElement;
  private readonly menu: MenuButton;

  constructor(onPick: (kind: WorkerKind, agent?: string) => void) {
    const button = h('button', { class: 'icon-btn add-worker', type: 'button', 'aria-label': 'Add worker', title: 'Add worker (Alt+T: shell)' }, '+');
    this.menu = new MenuButton(button, 'Add worker');
    this.menu.setItems(addableKinds().map((c) =>
      h('button', { class: 'menu-item', type: 'button', 'data-kind': c.kind, 'data-agent': c.agent, onClick: () => {
        this.menu.close(false);
        onPick(c.kind, c.agent);
      } }, c.addLabel ?? c.label)));
    this.el = this.menu.el;
  }

  dispose(): void {
    this.menu.dispose();
  }
}
