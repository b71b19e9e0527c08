// One Tab stop for a long list of controls: the chat's Copy buttons,
// disclosures, links and code blocks, a few per message, would otherwise be
// hundreds of Tab stops between the top of the page and the message box.
// The group's root (the conversation's scroller) is a Tab stop of its own;
// Tab from it enters the controls at the one used last (the newest at
// first), the arrow keys move between them, and Tab leaves the group
// (Shift+Tab goes back to the root). The controls keep tabindex 0: a
// scrolling code block must stay reachable in the page's own Tab order.
import { h } from './dom';
import { focusable, nextTabStop } from './focus-trap';

/** What the group moves between. */
const itemSelector = 'a[href], button, summary, input, select, textarea, [tabindex="0"]';

let hintSeq = 0;

export class FocusGroup {
  /** Read by screen readers when the root takes the focus. */
  readonly hint: HTMLElement;
  private last: HTMLElement | null = null;

  constructor(private readonly root: HTMLElement, hintText: string) {
    this.hint = h('span', { class: 'sr-only', id: `focus-group-hint-${++hintSeq}` }, hintText);
    root.setAttribute('aria-describedby', this.hint.id);
    root.addEventListener('keydown', (ev) => this.onKey(ev));
    root.addEventListener('focusin', (ev) => {
      const t = ev.target as HTMLElement;
      if (t !== root && this.isItem(t)) this.last = t;
    });
  }

  /** The controls, in document order, that can take the focus now. */
  items(): HTMLElement[] {
    return [...this.root.querySelectorAll<HTMLElement>(itemSelector)].filter((el) => this.isItem(el));
  }

  private isItem(el: HTMLElement): boolean {
    return el !== this.root && this.root.contains(el) && el.matches(itemSelector) && focusable(el);
  }

  private onKey(ev: KeyboardEvent): void {
    if (ev.defaultPrevented || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const t = ev.target as HTMLElement;
    if (t === this.root) {
      if (ev.key !== 'Tab' || ev.shiftKey) return;
      const items = this.items();
      const to = this.last !== null && items.includes(this.last) ? this.last : items[items.length - 1];
      if (to === undefined) return;
      ev.preventDefault();
      to.focus();
      return;
    }
    if (!this.isItem(t) || isTextField(t)) return;
    if (ev.key === 'Tab') {
      const to = ev.shiftKey ? this.root : nextTabStop(this.root);
      if (to === null) return;
      ev.preventDefault();
      to.focus();
      return;
    }
    const step = ev.key === 'ArrowDown' ? 1 : ev.key === 'ArrowUp' ? -1 : 0;
    const scrolls = t.scrollHeight > t.clientHeight + 1 || t.scrollWidth > t.clientWidth + 1;
    if (step !== 0) {
      // A box that still scrolls that way scrolls first.
      if (scrolls && (step > 0 ? t.scrollTop + t.clientHeight < t.scrollHeight - 1 : t.scrollTop > 0)) return;
      this.move(ev, t, step);
    } else if ((ev.key === 'Home' || ev.key === 'End') && !scrolls) {
      const items = this.items();
      this.focus(ev, ev.key === 'Home' ? items[0] : items[items.length - 1]);
    }
  }

  private move(ev: KeyboardEvent, from: HTMLElement, step: number): void {
    const items = this.items();
    const i = items.indexOf(from);
    this.focus(ev, items[i + step]);
  }

  private focus(ev: KeyboardEvent, to: HTMLElement | undefined): void {
    ev.preventDefault(); // at either end, the list does not scroll away either
    to?.focus();
  }
}

function isTextField(el: HTMLElement): boolean {
  return el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement ||
    (el instanceof HTMLInputElement && !['button', 'checkbox', 'radio', 'submit', 'reset'].includes(el.type));
}
