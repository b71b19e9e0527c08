// One polite live region for the page: short news a screen reader reads
// when it is idle (the permission mode changed), for changes that happen
// away from the focus or that the focused control does not say itself.
import { h } from './dom';

let region: HTMLElement | null = null;

/** Says text to screen readers, politely. */
export function announce(text: string): void {
  if (region === null || !region.isConnected) {
    region = h('div', { class: 'sr-only announcer', role: 'status', 'aria-live': 'polite' });
    document.body.append(region);
  }
  // The same words twice are a change too: a no-break space makes them differ.
  region.textContent = region.textContent === text ? `${text}\u00a0` : text;
}
