// The usage page's bar chart: cost per day as inline SVG, one bar per day of
// the range (empty days included, so the axis is time), with each bar's
// figure in its <title> for a tooltip and for screen readers.
import { h } from '../dom';
import { day, money, type UsageRow } from './state';

const svgNS = 'http://www.w3.org/2000/svg';

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>, text?: string): SVGElementTagNameMap[K] {
  const el = document.createElementNS(svgNS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = text;
  return el;
}

/** Every day from from to to (YYYY-MM-DD, both included), bounded. */
export function daysBetween(from: string, to: string): string[] {
  const out: string[] = [];
  const d = new Date(`${from}T00:00:00Z`);
  for (let i = 0; i < 400 && day(d) <= to; i++) {
    out.push(day(d));
    d.setUTCDate(d.getUTCDate() + 1);
  }
  return out;
}

/**
 * Draws rows (grouped by day) over the days from..to. The SVG stretches to
 * the width; its labels are HTML around it, so they never stretch.
 */
export function dayChart(rows: UsageRow[], from: string, to: string): HTMLElement {
  const days = daysBetween(from, to);
  const max = Math.max(...rows.map((r) => r.costUsd), 0);
  return h('div', { class: 'usage-chart-box' },
    h('span', { class: 'usage-label' }, `max ${money(max)}`),
    bars(rows, days, max, from, to),
    h('div', { class: 'usage-axis-labels' }, h('span', { class: 'usage-label' }, days[0] ?? from),
      h('span', { class: 'usage-label' }, days[days.length - 1] ?? to)));
}

function bars(rows: UsageRow[], days: string[], max: number, from: string, to: string): SVGSVGElement {
  const byDay = new Map(rows.map((r) => [r.key, r]));
  const w = 600;
  const hgt = 140;
  const top = 4;
  const bottom = 1;
  const slot = w / Math.max(days.length, 1);
  const el = svg('svg', { class: 'usage-chart', viewBox: `0 0 ${w} ${hgt}`, role: 'img', preserveAspectRatio: 'none' });
  el.append(svg('title', {}, `Cost per day, ${from} to ${to}; highest ${money(max)}`));
  el.append(svg('line', { class: 'usage-axis', x1: 0, x2: w, y1: hgt - bottom, y2: hgt - bottom }));
  days.forEach((d, i) => {
    const r = byDay.get(d);
    const v = r?.costUsd ?? 0;
    const bh = max > 0 ? ((hgt - top - bottom) * v) / max : 0;
    const bar = svg('rect', {
      class: 'usage-bar', x: i * slot + slot * 0.15, width: Math.max(slot * 0.7, 1),
      y: hgt - bottom - bh, height: Math.max(bh, v > 0 ? 1 : 0), 'data-day': d,
    });
    bar.append(svg('title', {}, `${d}: ${money(v)}, ${r?.turns ?? 0} turns`));
    el.append(bar);
  });
  return el;
}
