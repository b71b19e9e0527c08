// The header's rate-limit meter: how full the reported window is and when it
// resets; amber from 80% (or the CLI's own warning), red when refused. It is
// a link to the usage page. Hidden until a CLI reported a state (API-key
// logins never do).
import { h } from '../dom';
import { level, percent, rateLimits, resetText, windowName, type RateLimit } from './state';

export class RateMeter {
  readonly el: HTMLAnchorElement;
  private readonly bar: HTMLElement;
  private readonly text: HTMLElement;
  /** The phone's text: the percentage, or "Limit". */
  private readonly short: HTMLElement;
  private readonly unsubscribe: () => void;

  constructor(onOpen: (ev: MouseEvent) => void) {
    this.bar = h('span', { class: 'rate-meter-fill' });
    this.text = h('span', { class: 'rate-meter-text', 'aria-hidden': 'true' });
    this.short = h('span', { class: 'rate-meter-short', 'aria-hidden': 'true' });
    this.el = h('a', { class: 'rate-meter', href: '/usage', onClick: onOpen, hidden: true },
      h('span', { class: 'rate-meter-track', 'aria-hidden': 'true' }, this.bar), this.text, this.short);
    this.unsubscribe = rateLimits.subscribe((rl) => this.render(rl));
  }

  dispose(): void {
    this.unsubscribe();
  }

  private render(rl: RateLimit | null): void {
    const lv = level(rl);
    this.el.hidden = rl === null;
    this.el.dataset.level = lv;
    if (rl === null) return;
    const pct = percent(rl);
    const full = lv === 'rejected' ? 1 : (rl.utilization ?? 0);
    this.bar.style.width = `${Math.round(Math.min(1, full) * 100)}%`;
    const reset = resetText(rl);
    const name = windowName(rl);
    this.text.textContent = lv === 'rejected' ? `Limit reached · resets ${reset}` : `${pct ?? name} · resets ${reset}`;
    this.short.textContent = lv === 'rejected' ? 'Limit' : (pct ?? '');
    const what = lv === 'rejected' ? `The ${name} limit is reached` : `${pct ?? 'Part'} of the ${name} limit used`;
    this.el.title = `${what}; it resets at ${reset}. Open the usage page.`;
    this.el.setAttribute('aria-label', this.el.title);
  }
}
