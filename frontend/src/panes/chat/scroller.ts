// Stick-to-bottom scrolling: new content keeps the view at the bottom only when
// the reader is there. Scrolled up, a "Jump to latest ↓" pill is offered, and
// it turns into "New messages ↓" when output arrives meanwhile. The stuck
// flag follows the reader's own scrolling, not content growth: only moving
// up unsticks it, so a burst of appended lines cannot; sending a message
// sticks it again.
import { h, setText } from '../../dom';

/** How close to the bottom (px) still counts as "at the bottom". */
const slackPx = 48;

export class Scroller {
  readonly el: HTMLElement;
  readonly jump: HTMLButtonElement;
  private stuck = true;
  private fresh = false;
  private savedTop = 0;
  /** scrollTop at the last scroll event, to tell moving up from content growth. */
  private lastTop = 0;
  private readonly resize: ResizeObserver;

  constructor(content: HTMLElement) {
    this.el = h('div', { class: 'chat-scroll', tabindex: '0' }, content);
    this.jump = h('button', { class: 'btn btn-small chat-jump', type: 'button', hidden: true });
    this.jump.addEventListener('click', () => this.stick());
    this.el.addEventListener('scroll', () => this.onScroll(), { passive: true });
    // Late layout (fonts, opened details, content-visibility estimates) and a
    // viewport that shrinks (a banner, a permission card, the on-screen
    // keyboard) keep a stuck view at the bottom.
    this.resize = new ResizeObserver(() => this.follow());
    this.resize.observe(content);
    this.resize.observe(this.el);
    this.renderJump();
  }

  /** Messages were added: follow them when stuck, else say that there are new ones. */
  keep(): void {
    if (this.stuck) {
      this.toBottom();
      return;
    }
    this.fresh = true;
    this.renderJump();
  }

  /** Back to the bottom and following (the jump pill, or the reader sent a message). */
  stick(): void {
    this.stuck = true;
    this.toBottom();
  }

  /** The pane becomes hidden: remember where the reader was. */
  saveView(): void {
    this.savedTop = this.el.scrollTop;
  }

  /** The pane is shown again. */
  restoreView(): void {
    if (this.stuck) this.toBottom();
    else this.el.scrollTop = this.savedTop;
  }

  dispose(): void {
    this.resize.disconnect();
  }

  private follow(): void {
    if (this.stuck) this.toBottom();
  }

  private toBottom(): void {
    this.el.scrollTop = this.el.scrollHeight;
    this.fresh = false;
    this.renderJump();
  }

  /**
   * Reaching the bottom sticks; only moving up unsticks. A scroll event can
   * also come from content that grew after toBottom() (or from off-screen
   * chunks getting their real size): the gap is large then, but the reader
   * did not move up, so the view keeps following.
   */
  private onScroll(): void {
    if (this.el.clientHeight === 0) return; // hidden: no layout, no intent
    const top = this.el.scrollTop;
    const gap = this.el.scrollHeight - top - this.el.clientHeight;
    if (gap <= slackPx) this.stuck = true;
    else if (top < this.lastTop - 1) this.stuck = false;
    this.lastTop = top;
    if (this.stuck) this.fresh = false;
    this.renderJump();
  }

  private renderJump(): void {
    this.jump.hidden = this.stuck;
    this.jump.dataset.fresh = String(this.fresh);
    setText(this.jump, this.fresh ? 'New messages ↓' : 'Jump to latest ↓');
  }
}
