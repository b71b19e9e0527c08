// The list of changed files beside the diff: status letter, path (renames
// "old → new"), +/- counts. A listbox with aria-activedescendant: arrows or
// j/k move the current file and scroll the diff to it, Home/End jump, a click
// picks. Rows are reconciled by path, so a new frame touches only changed text.
import { h, reconcile, setText } from '../../dom';
import { splitPath, statusLetter, type DiffFile } from './model';

let nextListId = 0;

export class FileList {
  readonly el: HTMLElement;
  private readonly rows = new Map<string, HTMLElement>();
  private readonly idPrefix = `dfl${nextListId++}-`;
  private nextRow = 0;
  private paths: string[] = [];
  private current = '';

  /** onPick: a file was chosen (click or keys); the diff should show it. */
  constructor(private readonly onPick: (path: string) => void) {
    this.el = h('ul', { class: 'dd-files', role: 'listbox', 'aria-label': 'Changed files', tabindex: '0' });
    this.el.addEventListener('click', (ev) => {
      const row = (ev.target as HTMLElement).closest<HTMLElement>('.fl-row');
      if (row?.dataset.path !== undefined) this.pick(row.dataset.path);
    });
    this.el.addEventListener('keydown', (ev) => this.onKey(ev));
  }

  get currentPath(): string {
    return this.current;
  }

  setFiles(files: readonly DiffFile[]): void {
    this.paths = files.map((f) => f.path);
    reconcile(this.el, files, (f) => f.path, this.rows, (f) => this.create(f), (el, f) => update(el, f));
    if (!this.rows.has(this.current)) this.setCurrent(this.paths[0] ?? '', false);
  }

  /** Marks path as the current file (scroll spy or a pick); scrolls the row into view if asked. */
  setCurrent(path: string, reveal: boolean): void {
    const old = this.rows.get(this.current);
    old?.setAttribute('aria-selected', 'false');
    this.current = path;
    const row = this.rows.get(path);
    if (row === undefined) {
      this.el.removeAttribute('aria-activedescendant');
      return;
    }
    row.setAttribute('aria-selected', 'true');
    this.el.setAttribute('aria-activedescendant', row.id);
    if (reveal) row.scrollIntoView({ block: 'nearest' });
  }

  /** Moves the current file by delta (j/k) and picks it. */
  move(delta: number): void {
    if (this.paths.length === 0) return;
    const i = this.paths.indexOf(this.current);
    const next = i < 0 ? 0 : Math.min(this.paths.length - 1, Math.max(0, i + delta));
    this.pick(this.paths[next]!);
  }

  focus(): void {
    this.el.focus();
  }

  private pick(path: string): void {
    this.setCurrent(path, true);
    this.onPick(path);
  }

  private onKey(ev: KeyboardEvent): void {
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const last = this.paths.length - 1;
    switch (ev.key) {
      case 'ArrowDown':
      case 'j':
        this.move(1);
        break;
      case 'ArrowUp':
      case 'k':
        this.move(-1);
        break;
      case 'Home':
        if (last >= 0) this.pick(this.paths[0]!);
        break;
      case 'End':
        if (last >= 0) this.pick(this.paths[last]!);
        break;
      case 'Enter':
        if (this.current !== '') this.pick(this.current);
        break;
      default:
        return;
    }
    ev.preventDefault();
    ev.stopPropagation(); // the pane's own j/k handler must not move twice
  }

  private create(f: DiffFile): HTMLElement {
    const row = h('li', { class: 'fl-row', role: 'option', 'aria-selected': 'false', id: this.idPrefix + this.nextRow++ },
      h('span', { class: 'fl-status' }),
      h('span', { class: 'fl-path' }, h('span', { class: 'fl-dir' }), h('span', { class: 'fl-name' })),
      h('span', { class: 'fl-counts' }, h('span', { class: 'n-add' }), h('span', { class: 'n-del' })));
    row.dataset.path = f.path;
    return row;
  }
}

function update(row: HTMLElement, f: DiffFile): void {
  const [status, path, counts] = row.children as unknown as [HTMLElement, HTMLElement, HTMLElement];
  const [dirEl, nameEl] = path.children as unknown as [HTMLElement, HTMLElement];
  const [add, del] = counts.children as unknown as [HTMLElement, HTMLElement];
  setText(status, statusLetter(f.status));
  status.dataset.status = f.status;
  status.title = f.status;
  const [dir, name] = splitPath(f.path);
  const renamed = f.oldPath !== undefined && f.oldPath !== '' && f.oldPath !== f.path;
  setText(dirEl, renamed ? `${f.oldPath}\u00a0→\u00a0${dir}` : dir);
  setText(nameEl, name);
  path.title = renamed ? `${f.oldPath} → ${f.path}` : f.path;
  setText(add, f.binary ? '' : `+${f.additions}`);
  setText(del, f.binary ? 'bin' : `−${f.deletions}`);
}
