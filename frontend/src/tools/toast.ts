// A notify message from the agent: a small toast at the corner of the page,
// announced to screen readers, until dismissed (or 20 s, unless hovered or
// focused).
import { h } from '../dom';
import './tools.css';

let box: HTMLElement | null = null;

function container(): HTMLElement {
  if (box === null || !box.isConnected) {
    box = h('div', { class: 'tool-toasts', role: 'status', 'aria-live': 'polite' });
    document.body.append(box);
  }
  return box;
}

export function toast(title: string, message: string, open: () => void): void {
  const close = h('button', { class: 'btn btn-small tool-toast-close', type: 'button', 'aria-label': 'Dismiss' }, '×');
  const el = h('div', { class: 'tool-toast' },
    h('button', { class: 'tool-toast-body', type: 'button' },
      h('strong', null, title), h('span', null, message)),
    close);
  let held = false;
  const remove = (): void => el.remove();
  el.querySelector('.tool-toast-body')?.addEventListener('click', () => {
    open();
    remove();
  });
  close.addEventListener('click', remove);
  el.addEventListener('pointerenter', () => (held = true));
  el.addEventListener('focusin', () => (held = true));
  setTimeout(() => {
    if (!held) remove();
  }, 20000);
  container().append(el);
}
