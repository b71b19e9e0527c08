// Stick-to-bottom scrolling: new content keeps the view at the bottom only when
// the reader is there; otherwise a "jump to latest" button appears. The
// stuck flag follows the reader's own scrolling, not content growth, so a
// burst of appended lines cannot unstick it.
import { h } from '../../dom';

/** How close to the bottom (px) still counts as "at the bottom". */
const slackPx = 48;

export class Scroller {
  readonly el: HTMLElement;
  readonly jump: HTMLButtonElement;
  private stuck = true;
  private savedTop = 0;
  private readonly resize: ResizeObserver;

  constructor(content: HTMLElement) {
    this.el = h('div', { class: 'chat-scroll', tabindex: '0' }, content);
    this.jump = h('button', { class: 'btn btn-small chat-jump', type: 'button', hidden: true }, '↓ Jump to latest');
    this.jump.addEventListener('click', () => {
      this.stuck = true;
      this.toBottom();
    });
    this.el.addEventListener('scroll', () => this.onScroll(), { passive: true });
    // Late layout (fonts, opened details, content-visibility estimates) and a
    // viewport that shrinks (a banner, a permission card) keep a stuck view at the bottom.
    this.resize = new ResizeObserver(() => this.keep());
    this.resize.observe(content);
    this.resize.observe(this.el);
  }

  /** After content changed: follow it when stuck, else offer the jump button. */
  keep(): void {
    if (this.stuck) this.toBottom();
    else this.jump.hidden = false;
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

  private toBottom(): void {
    this.el.scrollTop = this.el.scrollHeight;
    this.jump.hidden = true;
  }

  private onScroll(): void {
    if (this.el.clientHeight === 0) return; // hidden: no layout, no intent
    const gap = this.el.scrollHeight - this.el.scrollTop - this.el.clientHeight;
    this.stuck = gap <= slackPx;
    this.jump.hidden = this.stuck;
  }
}
