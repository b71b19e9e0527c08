// A file's text with line numbers and the diff's light highlighting, for
// files of up to a MiB (tens of thousands of lines): the lines are cut
// into blocks that are built only when they come near the viewport, and
// each block is sized beforehand so the scrollbar is right from the start.
import { h } from '../../dom';
import { escapeHtml, highlightLine, langFor } from '../diff/highlight';

/** Lines per block. */
const blockLines = 200;
/** Height of one line, in px: keep in step with .fv-line in files.css. */
export const linePx = 20;

export class TextView {
  readonly el: HTMLElement;
  private readonly observer: IntersectionObserver;

  constructor(path: string, text: string) {
    const lines = text.split('\n');
    if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
    const lang = langFor(path);
    this.el = h('div', { class: 'fv-text', role: 'region', 'aria-label': `Contents of ${path}`, tabindex: 0 });
    this.observer = new IntersectionObserver((seen) => {
      for (const s of seen) {
        if (!s.isIntersecting) continue;
        const block = s.target as HTMLElement;
        this.observer.unobserve(block);
        const from = Number(block.dataset.from);
        block.innerHTML = blockHtml(lines.slice(from, from + blockLines), from, lang); // escaped by highlightLine / escapeHtml
        block.style.height = '';
      }
    }, { root: null, rootMargin: '1500px 0px' });
    for (let from = 0; from < lines.length; from += blockLines) {
      const n = Math.min(blockLines, lines.length - from);
      const block = h('div', { class: 'fv-block', 'data-from': String(from) });
      block.style.height = `${n * linePx}px`;
      this.el.append(block);
      this.observer.observe(block);
    }
    this.el.style.setProperty('--ln-width', `${String(lines.length).length + 1}ch`);
  }

  dispose(): void {
    this.observer.disconnect();
  }
}

type Lang = NonNullable<ReturnType<typeof langFor>>;

function blockHtml(lines: string[], from: number, lang: Lang | null): string {
  let out = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const code = lang === null ? escapeHtml(line) : highlightLine(line, lang);
    out += `<div class="fv-line"><span class="fv-ln">${from + i + 1}</span><span class="fv-code">${code}</span></div>`;
  }
  return out;
}
