// The usage page (/usage): totals, a bar chart of cost per day, tables per
// session and per model, and the subscription's rate-limit state. Figures
// come from the results the CLI reported (GET /api/usage), never estimates.
import { errorMessage, type Api } from '../api';
import { h } from '../dom';
import { dayChart } from './chart';
import {
  day, fetchUsage, level, money, percent, rateLimits, resetText, tokens, windowName,
  type RateLimit, type UsageReport, type UsageRow,
} from './state';

const ranges = [7, 30, 90];

export class UsagePage {
  readonly el: HTMLElement;
  private readonly body: HTMLElement;
  private readonly limit: HTMLElement;
  private readonly rangeButtons: HTMLButtonElement[];
  private days = 30;
  private seq = 0;
  private readonly unsubscribe: () => void;

  constructor(private readonly api: Api, private readonly sessionTitle: (sid: string) => string | null) {
    this.rangeButtons = ranges.map((n) => h('button', {
      class: 'btn btn-small', type: 'button', 'aria-pressed': String(n === this.days),
      onClick: () => {
        this.days = n;
        void this.load();
      },
    }, `${n} days`));
    this.body = h('div', { class: 'usage-body', 'aria-live': 'polite' });
    this.limit = h('div', { class: 'usage-limit' });
    this.el = h('section', { class: 'usage-page', 'aria-label': 'Usage' },
      h('div', { class: 'usage-head' }, h('h2', null, 'Usage'),
        h('div', { class: 'usage-ranges', role: 'group', 'aria-label': 'Range' }, ...this.rangeButtons)),
      this.limit, this.body,
      h('p', { class: 'muted usage-note' }, 'From the results Claude Code reported for each turn of the chat workers, in list prices; never estimated. Days are UTC.'));
    this.unsubscribe = rateLimits.subscribe((rl) => this.renderLimit(rl));
  }

  dispose(): void {
    this.unsubscribe();
  }

  /** Reads the three roll-ups of the chosen range and draws them. */
  async load(): Promise<void> {
    const seq = ++this.seq;
    for (const b of this.rangeButtons) b.setAttribute('aria-pressed', String(b.textContent === `${this.days} days`));
    const to = new Date();
    const from = new Date(to.getTime() - (this.days - 1) * 86400e3);
    this.body.setAttribute('aria-busy', 'true');
    try {
      const [byDay, bySession, byModel] = await Promise.all(['day', 'session', 'model']
        .map((g) => fetchUsage(this.api, g, day(from), day(to))));
      if (seq !== this.seq || byDay === undefined || bySession === undefined || byModel === undefined) return;
      this.render(byDay, bySession, byModel);
    } catch (err) {
      if (seq === this.seq) this.body.replaceChildren(h('p', { class: 'form-error', role: 'alert' }, `Cannot load usage: ${errorMessage(err)}`));
    } finally {
      this.body.removeAttribute('aria-busy');
    }
  }

  private render(byDay: UsageReport, bySession: UsageReport, byModel: UsageReport): void {
    const t = byDay.total;
    const chart = h('figure', { class: 'usage-figure' }, dayChart(byDay.rows, byDay.from, byDay.to),
      h('figcaption', { class: 'muted' }, `Cost per day, ${byDay.from} – ${byDay.to}`));
    this.body.replaceChildren(
      h('dl', { class: 'usage-totals' },
        stat('Cost', money(t.costUsd)), stat('Turns', String(t.turns)),
        stat('Input tokens', tokens(t.inputTokens)), stat('Output tokens', tokens(t.outputTokens)),
        stat('Cache read', tokens(t.cacheReadTokens)), stat('Cache write', tokens(t.cacheCreationTokens))),
      t.turns === 0 ? h('p', { class: 'muted' }, 'No turns in this range yet.') : chart,
      table('Per session', 'Session', bySession.rows, (r) => r.title || this.sessionTitle(r.key) || r.key),
      table('Per model', 'Model', byModel.rows, (r) => r.key));
  }

  private renderLimit(rl: RateLimit | null): void {
    if (rl === null) {
      this.limit.replaceChildren();
      return;
    }
    const lv = level(rl);
    const pct = percent(rl);
    const text = lv === 'rejected'
      ? `The ${windowName(rl)} limit is reached. It resets at ${resetText(rl)}.`
      : `${pct ?? 'Part'} of the ${windowName(rl)} limit used; it resets at ${resetText(rl)}.`;
    this.limit.dataset.level = lv;
    this.limit.replaceChildren(h('p', { role: lv === 'ok' ? 'status' : 'alert' }, text));
  }
}

function stat(label: string, value: string): HTMLElement {
  return h('div', { class: 'usage-stat' }, h('dt', null, label), h('dd', null, value));
}

function table(caption: string, head: string, rows: UsageRow[], name: (r: UsageRow) => string): HTMLElement {
  if (rows.length === 0) return h('div');
  const num = (v: string) => h('td', { class: 'num' }, v);
  const body = rows.map((r) => h('tr', null, h('th', { scope: 'row' }, name(r)),
    num(money(r.costUsd)), num(String(r.turns)), num(tokens(r.inputTokens)), num(tokens(r.outputTokens)),
    num(tokens(r.cacheReadTokens + r.cacheCreationTokens))));
  const cols: [string, boolean][] = [[head, false], ['Cost', true], ['Turns', true], ['Input', true], ['Output', true], ['Cache', true]];
  return h('div', { class: 'usage-table-wrap' }, h('table', { class: 'usage-table' },
    h('caption', null, caption),
    h('thead', null, h('tr', null, ...cols.map(([c, n]) => h('th', { scope: 'col', class: n ? 'num' : null }, c)))),
    h('tbody', null, ...body)));
}
