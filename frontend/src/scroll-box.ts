// Boxes that scroll on their own (code blocks, tool output, diffs) take the
// keyboard focus, so that a keyboard can scroll them too (WCAG 2.1.1), and
// say what they hold when focused. In the chat they are items of the
// conversation's focus group (focus-group.ts), not one Tab stop each.

/** Makes el a focusable, named box; returns it. A role el has is kept. */
export function scrollBox<T extends HTMLElement>(el: T, label: string): T {
  el.tabIndex = 0;
  if (!el.hasAttribute('role')) el.setAttribute('role', 'group');
  if (!el.hasAttribute('aria-label')) el.setAttribute('aria-label', label);
  return el;
}

/** The code blocks of rendered markdown under root. */
export function codeBoxes(root: ParentNode): void {
  for (const pre of root.querySelectorAll<HTMLElement>('pre')) scrollBox(pre, 'Code');
}
