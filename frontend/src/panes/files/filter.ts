// The filter box above the tree: files by fuzzy name, from the same index
// as the composer's `@` completion (GET …/files?q=). While it holds text,
// its matches replace the tree; Enter or a click opens one, Escape clears.
import { errorMessage } from '../../api';
import { h } from '../../dom';
import type { FsApi } from './api';
import { baseName, parentOf } from './model';

export class FileFilter {
  readonly input: HTMLInputElement;
  readonly results: HTMLElement;
  private seq = 0;
  private timer: number | undefined;
  private active = -1;

  constructor(private readonly fs: FsApi, private readonly on: { open(path: string): void; shown(filtering: boolean): void }) {
    this.input = h('input', { class: 'ff-input', type: 'search', placeholder: 'Filter files…', 'aria-label': 'Filter files by name', autocomplete: 'off', spellcheck: 'false' });
    this.results = h('ul', { class: 'ff-results', role: 'listbox', 'aria-label': 'Matching files', hidden: true });
    this.input.addEventListener('input', () => this.schedule());
    this.input.addEventListener('keydown', (ev) => this.onKey(ev));
    this.results.addEventListener('click', (ev) => {
      const li = (ev.target as HTMLElement).closest<HTMLElement>('.ff-hit');
      if (li?.dataset.path !== undefined) this.pick(li.dataset.path);
    });
  }

  get filtering(): boolean {
    return this.input.value.trim() !== '';
  }

  private schedule(): void {
    window.clearTimeout(this.timer);
    this.timer = window.setTimeout(() => void this.search(), 120);
  }

  private async search(): Promise<void> {
    const q = this.input.value.trim();
    const seq = ++this.seq;
    this.results.hidden = q === '';
    this.on.shown(q !== '');
    if (q === '') return;
    try {
      const files = await this.fs.find(q);
      if (seq !== this.seq) return;
      this.active = files.length > 0 ? 0 : -1;
      this.results.replaceChildren(...(files.length === 0
        ? [h('li', { class: 'ff-none' }, 'No file matches.')]
        : files.map((p, i) => h('li', { class: 'ff-hit', role: 'option', 'data-path': p, 'aria-selected': String(i === 0) },
          h('span', { class: 'ff-name' }, baseName(p)), h('span', { class: 'ff-dir' }, parentOf(p) === '.' ? '' : parentOf(p))))));
    } catch (err) {
      if (seq === this.seq) this.results.replaceChildren(h('li', { class: 'ff-none fv-error' }, errorMessage(err)));
    }
  }

  private onKey(ev: KeyboardEvent): void {
    const hits = [...this.results.querySelectorAll<HTMLElement>('.ff-hit')];
    if (ev.key === 'Escape' && this.filtering) {
      this.clear();
    } else if ((ev.key === 'ArrowDown' || ev.key === 'ArrowUp') && hits.length > 0) {
      this.active = (this.active + (ev.key === 'ArrowDown' ? 1 : -1) + hits.length) % hits.length;
      hits.forEach((el, i) => el.setAttribute('aria-selected', String(i === this.active)));
      hits[this.active]?.scrollIntoView({ block: 'nearest' });
    } else if (ev.key === 'Enter' && hits[this.active] !== undefined) {
      this.pick(hits[this.active]!.dataset.path ?? '');
    } else {
      return;
    }
    ev.preventDefault();
  }

  private pick(path: string): void {
    this.clear();
    this.on.open(path);
  }

  clear(): void {
    this.input.value = '';
    this.seq++;
    this.results.hidden = true;
    this.results.replaceChildren();
    this.on.shown(false);
  }

  dispose(): void {
    window.clearTimeout(this.timer);
  }
}
