// The folder tree of the Files tab: each folder is listed when it is first
// opened (a page at a time, "Show more" for the rest), never before; rows
// carry git marks, sizes and times. node_modules and ignored folders come
// folded: dimmed, and opened only when clicked. Arrow keys move, Right and
// Left open and close, Enter opens a file (a roving tabindex, as a tree).
import { errorMessage } from '../../api';
import { h, reconcile, setText } from '../../dom';
import type { FsApi, FsEntry } from './api';
import { ancestors, formatSize, formatTime, isFolded, isFolder, joinPath, markText, parentOf } from './model';

interface Folder {
  entries: FsEntry[];
  next: string;
  total: number;
  loading: boolean;
  error: string;
}

type Row =
  | { kind: 'entry'; key: string; path: string; entry: FsEntry; depth: number }
  | { kind: 'more'; key: string; path: string; depth: number; left: number }
  | { kind: 'note'; key: string; path: string; depth: number; text: string };

export interface TreeEvents {
  /** A file was chosen (click, Enter). */
  open(path: string, entry: FsEntry): void;
  /** The set of open folders changed (the live watch follows it). */
  opened(folders: string[]): void;
}

export class FileTree {
  readonly el: HTMLElement;
  private readonly folders = new Map<string, Folder>();
  private readonly expanded = new Set<string>(['.']);
  private readonly rowEls = new Map<string, HTMLElement>();
  private rows: Row[] = [];
  private selected: string | null = null;
  private dirty = new Set<string>();
  /** First listings in flight, so that reveal waits for one already started. */
  private readonly loads = new Map<string, Promise<void>>();

  constructor(private readonly fs: FsApi, private readonly on: TreeEvents) {
    this.el = h('div', { class: 'ft-tree', role: 'tree', 'aria-label': 'Files' });
    this.el.addEventListener('click', (ev) => this.onClick(ev));
    this.el.addEventListener('keydown', (ev) => this.onKey(ev));
  }

  /** The open folders whose listing is loaded (what the live watch covers). */
  get openFolders(): string[] {
    return [...this.expanded].filter((p) => this.folders.has(p));
  }

  /** The folder new files go to: the selected folder, or the selected file's. */
  get currentFolder(): string {
    const sel = this.selected;
    if (sel === null) return '.';
    const entry = this.entryAt(sel);
    return entry !== undefined && isFolder(entry) ? sel : parentOf(sel);
  }

  get selectedPath(): string | null {
    return this.selected;
  }

  /** The entry at path, when its folder is loaded. */
  entryAt(path: string): FsEntry | undefined {
    const name = path.slice(path.lastIndexOf('/') + 1);
    return this.folders.get(parentOf(path))?.entries.find((e) => e.name === name);
  }

  /** Lists the top folder (again). */
  start(): Promise<void> {
    return this.load('.', false);
  }

  /** Reloads loaded folders (a change frame, or the socket came back), keeping what was shown. */
  async refresh(paths: string[]): Promise<void> {
    await Promise.all(paths.filter((p) => this.folders.has(p)).map((p) => this.reload(p)));
  }

  /** Marks files with unsaved edits. */
  setDirty(paths: Set<string>): void {
    this.dirty = paths;
    this.render();
  }

  /** Opens every folder down to path, selects it and scrolls it into view. */
  async reveal(path: string): Promise<void> {
    for (const dir of ancestors(path)) {
      this.expanded.add(dir);
      if (!this.folders.has(dir)) await this.load(dir, false);
      else await this.loads.get(dir);
    }
    this.select(path);
    this.on.opened(this.openFolders);
  }

  select(path: string | null): void {
    this.selected = path;
    this.render();
    if (path !== null) this.rowEls.get(`e:${path}`)?.scrollIntoView({ block: 'nearest' });
  }

  focus(): void {
    (this.el.querySelector<HTMLElement>('.ft-row[tabindex="0"]') ?? this.el.querySelector<HTMLElement>('.ft-row'))?.focus();
  }

  private load(path: string, more: boolean): Promise<void> {
    const running = this.loads.get(path);
    if (running !== undefined) return running;
    const p = this.list(path, more).finally(() => this.loads.delete(path));
    this.loads.set(path, p);
    return p;
  }

  private async list(path: string, more: boolean): Promise<void> {
    const f = this.folders.get(path) ?? { entries: [], next: '', total: 0, loading: false, error: '' };
    this.folders.set(path, f);
    f.loading = true;
    this.render();
    try {
      const page = await this.fs.list(path, more ? f.next : '');
      f.entries = more ? [...f.entries, ...page.entries] : page.entries;
      f.next = page.next;
      f.total = page.total;
      f.error = '';
    } catch (err) {
      f.error = errorMessage(err);
    }
    f.loading = false;
    this.render();
  }

  /** Lists a folder again from the top, as many entries as were shown. */
  private async reload(path: string): Promise<void> {
    const f = this.folders.get(path);
    if (f === undefined) return;
    const want = Math.max(f.entries.length, 1);
    try {
      let page = await this.fs.list(path);
      const entries = [...page.entries];
      while (entries.length < want && page.next !== '') {
        page = await this.fs.list(path, page.next);
        entries.push(...page.entries);
      }
      Object.assign(f, { entries, next: page.next, total: page.total, error: '' });
    } catch (err) {
      f.error = errorMessage(err);
      if ((err as { status?: number }).status === 404) this.forget(path);
    }
    this.render();
  }

  /** Drops a folder that is gone, and everything below it. */
  private forget(path: string): void {
    for (const p of [...this.folders.keys()]) {
      if (p === path || p.startsWith(`${path}/`)) {
        this.folders.delete(p);
        this.expanded.delete(p);
      }
    }
    this.on.opened(this.openFolders);
  }

  private toggle(path: string): void {
    if (this.expanded.has(path)) {
      this.expanded.delete(path);
      this.render();
    } else {
      this.expanded.add(path);
      if (!this.folders.has(path)) void this.load(path, false).then(() => this.on.opened(this.openFolders));
      else this.render();
    }
    this.on.opened(this.openFolders);
  }

  private flatten(): Row[] {
    const out: Row[] = [];
    const walk = (dir: string, depth: number): void => {
      const f = this.folders.get(dir);
      if (f === undefined) return;
      for (const e of f.entries) {
        const path = joinPath(dir, e.name);
        out.push({ kind: 'entry', key: `e:${path}`, path, entry: e, depth });
        if (isFolder(e) && this.expanded.has(path)) walk(path, depth + 1);
      }
      if (f.error !== '') out.push({ kind: 'note', key: `n:${dir}`, path: dir, depth, text: f.error });
      else if (f.loading && f.entries.length === 0) out.push({ kind: 'note', key: `n:${dir}`, path: dir, depth, text: 'Loading…' });
      else if (f.entries.length === 0 && !f.loading) out.push({ kind: 'note', key: `n:${dir}`, path: dir, depth, text: 'Empty folder' });
      if (f.next !== '') out.push({ kind: 'more', key: `m:${dir}`, path: dir, depth, left: f.total - f.entries.length });
    };
    walk('.', 0);
    return out;
  }

  render(): void {
    this.rows = this.flatten();
    const focusable = this.selected !== null && this.rows.some((r) => r.kind === 'entry' && r.path === this.selected)
      ? `e:${this.selected}` : this.rows.find((r) => r.kind === 'entry')?.key;
    reconcile(this.el, this.rows, (r) => r.key, this.rowEls, (r) => this.createRow(r), (el, r) => this.updateRow(el, r, r.key === focusable));
  }

  private createRow(r: Row): HTMLElement {
    if (r.kind === 'more') return h('button', { class: 'ft-more', type: 'button', 'data-folder': r.path });
    if (r.kind === 'note') return h('div', { class: 'ft-note', role: 'none' });
    return h('div', { class: 'ft-row', role: 'treeitem' },
      h('span', { class: 'ft-chev', 'aria-hidden': 'true' }),
      h('span', { class: 'ft-name' }),
      h('span', { class: 'ft-mark' }),
      h('span', { class: 'ft-size' }),
      h('span', { class: 'ft-time' }));
  }

  private updateRow(el: HTMLElement, r: Row, focusable: boolean): void {
    el.style.setProperty('--depth', String(r.depth));
    if (r.kind === 'more') {
      setText(el, `Show more (${r.left.toLocaleString()} left)`);
      return;
    }
    if (r.kind === 'note') {
      setText(el, r.text);
      el.classList.toggle('ft-error', this.folders.get(r.path)?.error !== '');
      return;
    }
    const e = r.entry;
    const folder = isFolder(e);
    const [chev, name, mark, size, time] = el.children as unknown as HTMLElement[];
    el.dataset.path = r.path;
    el.dataset.type = e.type;
    el.tabIndex = focusable ? 0 : -1;
    el.setAttribute('aria-level', String(r.depth + 1));
    el.setAttribute('aria-selected', String(r.path === this.selected));
    if (folder) el.setAttribute('aria-expanded', String(this.expanded.has(r.path)));
    else el.removeAttribute('aria-expanded');
    el.toggleAttribute('data-folded', isFolded(e));
    el.toggleAttribute('data-dirty', this.dirty.has(r.path));
    if (e.git !== undefined) el.dataset.git = e.git;
    else delete el.dataset.git;
    setText(chev!, folder ? (this.expanded.has(r.path) ? '▾' : '▸') : '');
    setText(name!, e.type === 'symlink' ? `${e.name} → ${e.target ?? ''}` : e.name);
    const m = markText(e.git);
    setText(mark!, m?.letter ?? '');
    mark!.title = m?.title ?? '';
    setText(size!, e.type === 'file' ? formatSize(e.size) : '');
    setText(time!, formatTime(e.mtime));
    el.title = isFolded(e) ? `${e.name}: folded (opened only when you ask)` : e.type === 'symlink' ? `link to ${e.target ?? ''} (${e.points ?? ''})` : '';
  }

  private onClick(ev: MouseEvent): void {
    const t = ev.target as HTMLElement;
    const more = t.closest<HTMLElement>('.ft-more');
    if (more !== null) {
      void this.load(more.dataset.folder ?? '.', true);
      return;
    }
    const row = t.closest<HTMLElement>('.ft-row');
    if (row?.dataset.path !== undefined) this.activate(row.dataset.path);
  }

  private activate(path: string): void {
    const e = this.entryAt(path);
    if (e === undefined) return;
    this.selected = path;
    if (isFolder(e)) this.toggle(path);
    else {
      this.render();
      if (e.type !== 'other') this.on.open(path, e);
    }
  }

  private onKey(ev: KeyboardEvent): void {
    const row = (ev.target as HTMLElement).closest<HTMLElement>('.ft-row');
    if (row === null || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const path = row.dataset.path ?? '';
    const entries = this.rows.filter((r): r is Extract<Row, { kind: 'entry' }> => r.kind === 'entry');
    const i = entries.findIndex((r) => r.path === path);
    const e = entries[i]?.entry;
    let to: string | null = null;
    switch (ev.key) {
      case 'ArrowDown': to = entries[i + 1]?.path ?? null; break;
      case 'ArrowUp': to = entries[i - 1]?.path ?? null; break;
      case 'Home': to = entries[0]?.path ?? null; break;
      case 'End': to = entries[entries.length - 1]?.path ?? null; break;
      case 'ArrowRight':
        if (e !== undefined && isFolder(e) && !this.expanded.has(path)) this.toggle(path);
        break;
      case 'ArrowLeft':
        if (this.expanded.has(path) && path !== '.') this.toggle(path);
        else if (parentOf(path) !== '.') to = parentOf(path);
        break;
      case 'Enter':
      case ' ':
        this.activate(path);
        break;
      default:
        return;
    }
    ev.preventDefault();
    if (to !== null) {
      this.select(to);
      this.rowEls.get(`e:${to}`)?.focus();
    }
  }
}
