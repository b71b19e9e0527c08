// Skip links: the page's first Tab stops, shown while focused. With a chat
// on screen they go to its conversation or its message box, past the
// session list, the top bar and the tabs; "Skip to main content" is always
// there. They follow what the main area shows (a MutationObserver on
// which panes are hidden).
import { h } from '../dom';

/** The chat pane shown now, if any. */
function shownChat(main: HTMLElement): HTMLElement | null {
  return [...main.querySelectorAll<HTMLElement>('.pane-chat:not([hidden])')].find((el) => el.checkVisibility()) ?? null;
}

export class SkipLinks {
  readonly el: HTMLElement;
  private readonly chatLinks: HTMLElement[];
  private readonly obs: MutationObserver;

  constructor(private readonly main: HTMLElement) {
    main.tabIndex = -1; // a target of the links, never a Tab stop
    const link = (text: string, target: () => HTMLElement | null): HTMLAnchorElement =>
      h('a', { class: 'skip-link', href: '#main', onClick: (ev: MouseEvent) => {
        ev.preventDefault();
        (target() ?? main).focus();
      } }, text);
    this.chatLinks = [
      link('Skip to conversation', () => shownChat(main)?.querySelector<HTMLElement>('.chat-scroll') ?? null),
      link('Skip to message box', () => shownChat(main)?.querySelector<HTMLElement>('.chat-input') ?? null),
    ];
    this.el = h('nav', { class: 'skip-links', 'aria-label': 'Skip links' }, ...this.chatLinks, link('Skip to main content', () => main));
    this.obs = new MutationObserver((records) => {
      if (records.some((r) => r.type === 'childList' || (r.target as Element).matches('.pane, .session-view'))) this.update();
    });
    this.obs.observe(main, { subtree: true, childList: true, attributes: true, attributeFilter: ['hidden'] });
    this.update();
  }

  update(): void {
    const chat = shownChat(this.main) !== null;
    for (const a of this.chatLinks) a.hidden = !chat;
  }

  dispose(): void {
    this.obs.disconnect();
  }
}
