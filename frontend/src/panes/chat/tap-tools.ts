// On a touch screen a message's tools (its Copy button) show when the
// message is tapped or long-pressed, and go with the next tap elsewhere:
// under every message they took a 44 px row each (chat.css). A tap on a
// link, a button, inside a code block or one that selects text is left to
// the browser.
const touch = '(pointer: coarse), (max-width: 768px)';
const messages = '.chat-text, .chat-user';

export function revealToolsOnTap(scroller: HTMLElement): void {
  let open: HTMLElement | null = null;
  const show = (el: HTMLElement | null): void => {
    if (open === el) return;
    if (open !== null) delete open.dataset.tools;
    open = el;
    if (el !== null) el.dataset.tools = 'open';
  };
  const target = (ev: Event): HTMLElement | null => {
    const t = ev.target as Element;
    if (!window.matchMedia(touch).matches || t.closest('a, button, input, textarea, summary, pre') !== null) return null;
    return t.closest<HTMLElement>(messages);
  };
  scroller.addEventListener('click', (ev) => {
    if ((ev.target as Element).closest('.msg-tools') !== null) return;
    if (!window.getSelection()?.isCollapsed) return;
    const el = target(ev);
    show(el === open ? null : el);
  });
  // A long press: the browser may show its own menu too (select, copy).
  scroller.addEventListener('contextmenu', (ev) => {
    const el = target(ev);
    if (el !== null) show(el);
  });
}
