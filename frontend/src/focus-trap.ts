// Tab stops, and keeping Tab inside what covers the page (the phone's
// session drawer, the search palette). A modal <dialog> makes the page
// behind it inert, but Tab from its last control still leaves it, for the
// document itself: the focus looks lost. trapTab wraps around instead.

const tabStopSelector = 'a[href], button, input, select, textarea, summary, [tabindex]';

/** Whether el can take the focus from the keyboard now (shown, enabled, not inert, tabindex >= 0). */
export function focusable(el: HTMLElement): boolean {
  if ((el as HTMLButtonElement).disabled === true || el.tabIndex < 0) return false;
  return el.closest('[inert]') === null && el.checkVisibility();
}

/** The Tab stops inside root, in document order. */
export function tabStopsIn(root: ParentNode): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(tabStopSelector)].filter(focusable);
}

/** The first Tab stop after root and outside it, in document order. */
export function nextTabStop(root: HTMLElement): HTMLElement | null {
  for (const el of document.querySelectorAll<HTMLElement>(tabStopSelector)) {
    if (root.contains(el) || !(root.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING)) continue;
    if (focusable(el)) return el;
  }
  return null;
}

/**
 * For a Tab keydown: moves the focus to the next (Shift: previous) Tab stop
 * inside root, wrapping around at either end, so that it never leaves.
 */
export function trapTab(ev: KeyboardEvent, root: HTMLElement): void {
  if (ev.key !== 'Tab' || ev.altKey || ev.ctrlKey || ev.metaKey || ev.defaultPrevented) return;
  ev.preventDefault();
  const stops = tabStopsIn(root);
  if (stops.length === 0) return;
  const active = document.activeElement;
  const after = (el: HTMLElement): boolean => active !== null && !!(active.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING);
  const to = ev.shiftKey
    ? [...stops].reverse().find((el) => el !== active && !after(el)) ?? stops[stops.length - 1]
    : stops.find((el) => el !== active && after(el)) ?? stops[0];
  to?.focus();
}
