// One file of the diff: a placeholder of estimated height until it nears the
// viewport (build), a sticky header and the hunks once built, and back to a
// placeholder of its measured height when far away (unbuild), so the page
// holds the DOM of a few screens whatever the size of the diff.
//
// A new frame's file replaces the old one through setFile(), which rebuilds
// only when what is shown changed. "Show diff" on a truncated file fetches it
// in full through REST; that copy is fetched again after every change while
// the user keeps it open.
import { errorMessage } from '../../api';
import { h } from '../../dom';
import { bodyHtml, estimateHeight, noteFor, ROW_LIMIT } from './render';
import { contentSig, displayPath, shapeKey, splitPath, statusLetter, type DiffFile } from './model';

export interface SectionDeps {
  /** GET .../diff?path=: the file with all its hunks. */
  fetchFull(path: string): Promise<DiffFile>;
  /** The user toggled this file (to remember it across frames). */
  onCollapse(path: string, collapsed: boolean): void;
}

export class FileSection {
  readonly el: HTMLElement;
  file: DiffFile;
  private key: string;
  /** The full copy fetched by "Show diff", shown instead of the truncated file. */
  private full: DiffFile | null = null;
  private wantFull = false;
  private fullStale = false;
  private loading = false;
  private loadError = '';
  private sig = 0;
  private built = false;
  private limit = ROW_LIMIT;
  private body: HTMLElement | null = null;
  private toggleBtn: HTMLButtonElement | null = null;

  constructor(file: DiffFile, public collapsed: boolean, private readonly deps: SectionDeps) {
    this.file = file;
    this.key = shapeKey(file);
    this.el = h('section', { class: 'df-section' });
    this.el.dataset.path = file.path;
    this.el.classList.toggle('collapsed', collapsed);
    this.el.addEventListener('click', (ev) => this.onClick(ev));
    this.placeholder();
  }

  get isBuilt(): boolean {
    return this.built;
  }

  private get shown(): DiffFile {
    return this.full ?? this.file;
  }

  /** Takes the file from a new frame; rebuilds only if what is shown changed. */
  setFile(f: DiffFile): void {
    const key = shapeKey(f);
    const same = key === this.key;
    this.file = f;
    this.key = key;
    if (f.truncated !== true) {
      this.full = null;
      this.wantFull = false;
    }
    if (this.wantFull) {
      this.fullStale = true;
      if (this.built) void this.loadFull();
    }
    if (same && (!this.built || this.full !== null || contentSig(f) === this.sig)) return;
    if (this.built) this.render();
    else this.placeholder();
  }

  build(): void {
    if (this.built) return;
    this.built = true;
    this.el.style.height = '';
    this.render();
    if (this.fullStale && this.wantFull) void this.loadFull();
  }

  /** Back to a placeholder of the height the section has now (measured by the caller: no scroll jump). */
  unbuild(height: number): void {
    if (!this.built) return;
    this.built = false;
    this.body = this.toggleBtn = null;
    this.el.replaceChildren();
    this.el.style.height = `${height}px`;
  }

  setCollapsed(collapsed: boolean): void {
    if (collapsed === this.collapsed) return;
    this.collapsed = collapsed;
    this.el.classList.toggle('collapsed', collapsed);
    if (!this.built) {
      this.placeholder();
      return;
    }
    this.toggleBtn?.setAttribute('aria-expanded', String(!collapsed));
    if (this.body !== null) this.body.hidden = collapsed;
  }

  private placeholder(): void {
    this.el.style.height = `${estimateHeight(this.shown, this.collapsed, this.limit)}px`;
  }

  private render(): void {
    const f = this.shown;
    this.sig = contentSig(f);
    this.toggleBtn = h('button', { type: 'button', class: 'df-toggle', 'aria-expanded': String(!this.collapsed), title: 'Collapse or expand (o)' },
      h('span', { class: 'df-chevron', 'aria-hidden': 'true' }),
      h('span', { class: 'df-status', 'data-status': f.status, title: f.status }, statusLetter(f.status)),
      pathLabel(f));
    const counts = f.binary ? null : h('span', { class: 'df-counts' }, h('span', { class: 'n-add' }, `+${f.additions}`), ' ', h('span', { class: 'n-del' }, `−${f.deletions}`));
    const head = h('div', { class: 'df-head' }, this.toggleBtn, ...badges(f), counts, openButton(f));
    this.body = h('div', { class: 'df-body' });
    this.body.hidden = this.collapsed;
    this.renderBody();
    this.el.classList.toggle('collapsed', this.collapsed);
    this.el.replaceChildren(head, this.body);
  }

  private renderBody(): void {
    if (this.body === null) return;
    const f = this.shown;
    const note = noteFor(f);
    if (note === null) {
      this.body.className = 'df-body';
      this.body.innerHTML = `<div class="dd-lines">${bodyHtml(f, this.limit)}</div>`;
      return;
    }
    this.body.className = 'df-body df-note';
    const parts: (Node | string)[] = [note];
    if (f.truncated === true && this.full === null) {
      parts.push(' ', h('button', { type: 'button', class: 'btn btn-small', 'data-action': 'show-full', disabled: this.loading }, this.loading ? 'Loading…' : 'Show diff'));
    } else if (f.truncated === true) {
      parts.push(' Even the full diff is too large (over 32 MiB).');
    }
    if (this.loadError !== '') parts.push(h('span', { class: 'df-error', role: 'alert' }, ` ${this.loadError}`));
    this.body.replaceChildren(...parts);
  }

  private onClick(ev: MouseEvent): void {
    const t = ev.target as HTMLElement;
    if (t.closest('.df-toggle') !== null) {
      this.setCollapsed(!this.collapsed);
      this.deps.onCollapse(this.file.path, this.collapsed);
      return;
    }
    const action = t.closest<HTMLElement>('[data-action]')?.dataset.action;
    if (action === 'more') {
      this.limit = Infinity;
      this.renderBody();
    } else if (action === 'show-full') {
      this.wantFull = true;
      void this.loadFull();
    }
  }

  /** Fetches the full file; a newer frame while loading marks it stale and fetches again. */
  private async loadFull(): Promise<void> {
    if (this.loading) return;
    this.loading = true;
    this.fullStale = false;
    this.loadError = '';
    if (this.full === null) this.renderBody();
    try {
      const f = await this.deps.fetchFull(this.file.path);
      if (this.wantFull) this.full = f;
    } catch (err) {
      this.loadError = `Could not load the diff: ${errorMessage(err)}`;
    } finally {
      this.loading = false;
    }
    if (this.fullStale && this.built) {
      void this.loadFull();
      return;
    }
    if (this.built) this.render();
    else this.placeholder();
  }
}

/** "Open" shows the file itself in the session's Files tab (not for a deleted one). */
function openButton(f: DiffFile): HTMLElement | null {
  if (f.status === 'deleted') return null;
  const b = h('button', { type: 'button', class: 'btn btn-small df-open', title: `Open ${f.path} in the Files tab` }, 'Open');
  b.addEventListener('click', () => b.dispatchEvent(new CustomEvent('agentdesk-open-file', { bubbles: true, detail: { path: f.path } })));
  return b;
}

function pathLabel(f: DiffFile): HTMLElement {
  const [dir, name] = splitPath(f.path);
  const el = h('span', { class: 'df-path', title: displayPath(f) });
  if (f.oldPath !== undefined && f.oldPath !== '' && f.oldPath !== f.path) el.append(h('span', { class: 'df-old' }, f.oldPath), ' → ');
  el.append(h('span', { class: 'df-dir' }, dir), h('span', { class: 'df-name' }, name));
  return el;
}

function badges(f: DiffFile): HTMLElement[] {
  const out: HTMLElement[] = [];
  if (f.oldMode !== undefined && f.newMode !== undefined && f.oldMode !== f.newMode) {
    out.push(h('span', { class: 'df-badge' }, `mode ${f.oldMode} → ${f.newMode}`));
  }
  if (f.binary) out.push(h('span', { class: 'df-badge' }, 'binary file'));
  if (f.truncated === true) out.push(h('span', { class: 'df-badge' }, 'large diff'));
  return out;
}
