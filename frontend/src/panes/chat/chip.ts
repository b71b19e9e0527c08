// The text of a chat-bar button ("chip") in two lengths: the whole words on
// a wide screen, a short form on a phone (chat.css shows one), so the
// model and the mode stay readable instead of ending in "…".
import { h } from '../../dom';

/** Sets button's text to full (short on a phone) with the menu's ▾; unchanged text is left alone. */
export function setChip(button: HTMLElement, full: string, short = full): void {
  if (button.dataset.full === full && button.dataset.short === short) return;
  button.dataset.full = full;
  button.dataset.short = short;
  button.replaceChildren(h('span', { class: 'chip-full' }, full), h('span', { class: 'chip-short', 'aria-hidden': 'true' }, short), ' ▾');
}

