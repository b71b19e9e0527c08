// The sidebar as a drawer on phones (<= 768px): the menu button opens it
// over the content; the backdrop, Escape, a swipe to the left, or opening
// a session close it. While closed on a phone the sidebar is inert, so Tab
// does not walk through it; on wider screens it is always there. While open,
// the page behind it is inert and Tab wraps around inside it (with the
// inbox, when that opens over it); closing gives the focus back to the
// menu button.
import { h } from '../dom';
import { trapTab } from '../focus-trap';

const phoneQuery = '(max-width: 768px)';
/** A horizontal swipe at least this long (px) closes the drawer. */
const swipePx = 60;

export class Drawer {
  readonly backdrop: HTMLElement;
  private readonly query: MediaQueryList;
  private isOpen = false;
  private startX = 0;
  private startY = 0;
  private readonly onQuery = (): void => this.apply(false);
  private readonly onKey = (ev: KeyboardEvent): void => {
    if (ev.key === 'Tab' && this.isOpen && this.phone && document.querySelector('dialog[open]') === null) {
      trapTab(ev, this.app); // all but the drawer and what opens over it is inert
      return;
    }
    if (ev.key === 'Escape' && this.isOpen && !ev.defaultPrevented && document.querySelector('dialog[open]') === null) {
      ev.preventDefault();
      this.close(true);
    }
  };

  constructor(private readonly app: HTMLElement, private readonly panel: HTMLElement, private readonly button: HTMLButtonElement) {
    this.backdrop = h('div', { class: 'drawer-backdrop', 'aria-hidden': 'true', onClick: () => this.close(true) });
    this.query = matchMedia(phoneQuery);
    this.query.addEventListener('change', this.onQuery);
    document.addEventListener('keydown', this.onKey);
    panel.addEventListener('touchstart', (ev) => this.touchStart(ev), { passive: true });
    panel.addEventListener('touchend', (ev) => this.touchEnd(ev), { passive: true });
    this.apply(false);
  }

  /** True on a phone-sized screen, where the sidebar is a drawer. */
  get phone(): boolean {
    return this.query.matches;
  }

  open(): void {
    if (!this.phone) return;
    this.isOpen = true;
    this.apply(false);
    const target = this.panel.querySelector<HTMLElement>('[aria-current="page"]') ?? this.panel.querySelector<HTMLElement>('button, a');
    target?.focus();
  }

  /** Closes the drawer; focusButton returns focus to the menu button. */
  close(focusButton: boolean): void {
    if (!this.isOpen) return;
    this.isOpen = false;
    this.apply(focusButton);
  }

  toggle(): void {
    if (this.isOpen) this.close(true);
    else this.open();
  }

  dispose(): void {
    this.query.removeEventListener('change', this.onQuery);
    document.removeEventListener('keydown', this.onKey);
  }

  private apply(focusButton: boolean): void {
    const open = this.isOpen && this.phone;
    this.app.dataset.drawer = open ? 'open' : 'closed';
    this.button.setAttribute('aria-expanded', String(open));
    this.panel.inert = this.phone && !open;
    for (const el of this.behind()) el.inert = open;
    if (focusButton && this.phone) this.button.focus();
  }

  /** What the open drawer covers: the app but for the drawer, its backdrop and dialogs over it (the inbox). */
  private behind(): HTMLElement[] {
    const out: HTMLElement[] = [];
    for (const c of this.app.children) {
      if (!(c instanceof HTMLElement) || c === this.backdrop || c.getAttribute('role') === 'dialog') continue;
      if (!c.contains(this.panel)) out.push(c);
      else for (const s of c.children) if (s instanceof HTMLElement && !s.contains(this.panel)) out.push(s);
    }
    return out;
  }

  private touchStart(ev: TouchEvent): void {
    const t = ev.touches[0];
    if (t === undefined) return;
    this.startX = t.clientX;
    this.startY = t.clientY;
  }

  private touchEnd(ev: TouchEvent): void {
    const t = ev.changedTouches[0];
    if (t === undefined || !this.isOpen) return;
    const dx = t.clientX - this.startX;
    const dy = t.clientY - this.startY;
    if (dx <= -swipePx && Math.abs(dy) < Math.abs(dx)) this.close(false);
  }
}
