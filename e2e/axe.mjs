// axe-core in the browser tests: its source (node_modules/axe-core, pinned in
// package.json) is injected into the page, and axe.run checks the WCAG 2.1
// A and AA rules (and 2.2 AA's). Nothing is fetched: the script travels as a string, and is
// evaluated through the DevTools protocol (page.evaluate) because the app's
// Content-Security-Policy rightly refuses the inline <script> that
// page.addScriptTag({content}) would add.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
let source = null;

/** The rule tags checked: WCAG 2.0 and 2.1, levels A and AA, and 2.2 AA (target size). */
export const wcagTags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * The WCAG A/AA violations of the page now (or of the part matched by
 * include, a CSS selector), as axe reports them: [{ id, impact, help, nodes:
 * [{ target, summary }] }].
 */
export async function axeViolations(page, include = null, runOnly = { type: 'tag', values: wcagTags }) {
  source ??= await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.evaluate(source);
  return page.evaluate(async ({ runOnly, include }) => {
    const res = await window.axe.run(include === null ? document : { include: [include] }, {
      runOnly,
      resultTypes: ['violations'],
    });
    return res.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target.join(' '), summary: n.failureSummary })),
    }));
  }, { runOnly, include });
}

/**
 * axeViolations, plus the contrast of everything inside the scrolling
 * element scroller: axe only measures text it can see (what is scrolled
 * out of view is "incomplete"), so the scroller is stepped from its top to
 * its end, a screen at a time, and color-contrast runs at every step. Ends
 * scrolled to the bottom. Violations of a rule at one node count once.
 */
export async function axeViolationsScrolled(page, scroller) {
  const all = await axeViolations(page);
  const el = page.locator(scroller);
  const seen = new Set(all.flatMap((v) => v.nodes.map((n) => `${v.id} ${n.target}`)));
  for (let top = 0; ; ) {
    const { at, end } = await el.evaluate((e, t) => {
      e.scrollTop = t;
      return { at: e.scrollTop, end: e.scrollTop + e.clientHeight >= e.scrollHeight - 1 || t > e.scrollTop };
    }, top);
    for (const v of await axeViolations(page, null, { type: 'rule', values: ['color-contrast'] })) {
      const nodes = v.nodes.filter((n) => !seen.has(`${v.id} ${n.target}`));
      nodes.forEach((n) => seen.add(`${v.id} ${n.target}`));
      if (nodes.length > 0) all.push({ ...v, nodes });
    }
    if (end) break;
    top = at + Math.max(100, Math.floor((await el.evaluate((e) => e.clientHeight)) * 0.8));
  }
  await el.evaluate((e) => { e.scrollTop = e.scrollHeight; });
  return all;
}

/** The violations as readable lines: rule, node and axe's summary. */
export function describeViolations(violations) {
  const out = [];
  for (const v of violations) {
    for (const n of v.nodes) out.push(`${v.id} (${v.impact}): ${v.help}\n    at ${n.target}\n    ${n.summary.replace(/\n/g, '\n    ')}`);
  }
  return out.join('\n');
}
