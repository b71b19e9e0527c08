// The Files tab: the tree (with its filter and toolbar) beside the viewer,
// or, on a phone, one of them at a time with a back button. Files dropped
// anywhere on the tab upload into the folder shown (or the folder row they
// are dropped on). The worker's socket keeps the open folders live.
import { errorMessage } from '../../api';
import { h } from '../../dom';
import type { SocketState } from '../../ws';
import type { Pane, PaneContext } from '../registry';
import { FsApi, type FsEntry } from './api';
import { askArchive, askDelete, askPath } from './dialogs';
import { FileFilter } from './filter';
import { baseName, isFolder, joinPath, parentOf, treePath } from './model';
import { FsSocket } from './socket';
import { FileTree } from './tree';
import { Uploads } from './upload';
import { Viewer } from './viewer';

export class FilesPane implements Pane {
  readonly el: HTMLElement;
  private readonly fs: FsApi;
  private readonly tree: FileTree;
  private readonly viewer: Viewer;
  private readonly filter: FileFilter;
  private readonly uploads: Uploads;
  private readonly picker: HTMLInputElement;
  private readonly live: HTMLElement;
  private readonly error: HTMLElement;
  private readonly drop: HTMLElement;
  private socket: FsSocket | null = null;
  private started = false;
  private readonly beforeUnload = (ev: BeforeUnloadEvent): void => {
    if (this.viewer.dirtyPaths.size > 0) ev.preventDefault();
  };

  constructor(private readonly ctx: PaneContext) {
    this.fs = new FsApi(ctx.api, ctx.session.id);
    this.tree = new FileTree(this.fs, {
      open: (path, e) => this.openEntry(path, e),
      opened: (folders) => this.socket?.watch(folders),
    });
    this.viewer = new Viewer(this.fs, {
      back: () => this.setView('tree'),
      rename: (p) => void this.rename(p),
      remove: (p) => void this.remove(p),
      dirty: (paths) => this.tree.setDirty(paths),
    });
    this.filter = new FileFilter(this.fs, {
      open: (p) => void this.reveal(p, true),
      shown: (on) => (this.tree.el.hidden = on),
    });
    this.uploads = new Uploads(this.fs, (dir) => void this.tree.refresh([dir]));
    this.picker = h('input', { type: 'file', multiple: true, hidden: true, class: 'fp-picker' });
    this.picker.addEventListener('change', () => {
      this.uploads.add(this.tree.currentFolder, [...(this.picker.files ?? [])]);
      this.picker.value = '';
    });
    this.live = h('span', { class: 'fp-live', 'aria-live': 'polite' });
    this.error = h('p', { class: 'form-error fp-error', role: 'alert' });
    this.drop = h('div', { class: 'fp-drop', hidden: true }, 'Drop files to upload them');
    const side = h('div', { class: 'fp-side' },
      h('div', { class: 'fp-tools' }, this.filter.input, this.toolbar()),
      this.error, this.filter.results, this.tree.el, this.uploads.el,
      h('div', { class: 'fp-foot' }, this.live));
    this.el = h('div', { class: 'pane pane-files', hidden: true, 'data-view': 'tree' }, side, this.viewer.el, this.picker, this.drop);
    this.el.dataset.workerId = ctx.worker.id;
    this.listenForDrops();
    window.addEventListener('beforeunload', this.beforeUnload);
  }

  private toolbar(): HTMLElement {
    const btn = (label: string, title: string, cls: string, run: () => void): HTMLElement =>
      h('button', { class: `btn btn-small ${cls}`, type: 'button', title, onClick: run }, label);
    return h('div', { class: 'fp-buttons' },
      btn('New file', 'New file in the selected folder', 'fp-new-file', () => void this.create(false)),
      btn('New folder', 'New folder in the selected folder', 'fp-new-folder', () => void this.create(true)),
      btn('Upload', 'Upload files into the selected folder (or drop them here)', 'fp-upload', () => this.picker.click()),
      btn('Download', 'Download the selected folder as a zip or tar.gz', 'fp-download', () => void this.download()),
      btn('Rename', 'Rename or move the selected file or folder', 'fp-rename', () => this.withSelected((p) => this.rename(p))),
      btn('Delete', 'Delete the selected file or folder', 'fp-delete', () => this.withSelected((p) => this.remove(p))));
  }

  show(): void {
    this.el.hidden = false;
    if (this.started) return;
    this.started = true;
    const path = `/ws/sessions/${encodeURIComponent(this.ctx.session.id)}/workers/${encodeURIComponent(this.ctx.worker.id)}`;
    this.socket = new FsSocket(path, {
      changed: (folders) => {
        void this.tree.refresh(folders);
        void this.viewer.changed(folders);
      },
      state: (s) => this.renderLive(s),
    });
    void this.tree.start().then(() => this.socket?.watch(this.tree.openFolders));
  }

  hide(): void {
    this.el.hidden = true;
  }

  focus(): void {
    if (this.el.dataset.view === 'file') this.viewer.focus();
    else this.tree.focus();
  }

  /** Shows a file a tool card or the diff named (absolute, or relative to the session's folder). */
  openFile(path: string): void {
    const rel = treePath(this.ctx.session.cwd, path);
    if (!this.started) this.show();
    if (rel === null) {
      this.error.textContent = `${path} is outside the session’s folder (${this.ctx.session.cwd}); it cannot be shown here.`;
      return;
    }
    void this.reveal(rel, true);
  }

  dispose(): void {
    window.removeEventListener('beforeunload', this.beforeUnload);
    this.socket?.dispose();
    this.viewer.dispose();
    this.uploads.dispose();
    this.filter.dispose();
    this.el.remove();
  }

  private setView(v: 'tree' | 'file'): void {
    this.el.dataset.view = v;
  }

  private renderLive(s: SocketState): void {
    this.live.textContent = s === 'open' ? 'Live: changes on disk show up here' : s === 'connecting' ? 'Connecting…' : 'Not live: reconnecting…';
    this.live.dataset.state = s;
  }

  private openEntry(path: string, _e: FsEntry): void {
    this.error.textContent = '';
    this.setView('file');
    void this.viewer.show(path);
  }

  /** Opens the folders down to path in the tree and shows it. */
  private async reveal(path: string, open: boolean): Promise<void> {
    this.error.textContent = '';
    await this.tree.reveal(path);
    const e = this.tree.entryAt(path);
    if (e === undefined) {
      this.error.textContent = `${path} was not found in the session’s folder.`;
      return;
    }
    if (open && !isFolder(e)) this.openEntry(path, e);
  }

  private withSelected(run: (path: string) => Promise<void>): void {
    const p = this.tree.selectedPath;
    if (p === null) {
      this.error.textContent = 'Select a file or folder in the tree first.';
      return;
    }
    void run(p);
  }

  private async create(folder: boolean): Promise<void> {
    const dir = this.tree.currentFolder;
    const path = await askPath(folder ? 'New folder' : 'New file', 'Path in the session’s folder', joinPath(dir, folder ? 'new-folder' : 'new-file.txt'), 'Create');
    if (path === null) return;
    await this.act(async () => {
      if (folder) await this.fs.mkdir(path);
      else await this.fs.save(path, '', null);
      await this.tree.refresh([parentOf(path)]);
      await this.reveal(path, !folder);
    });
  }

  private async rename(path: string): Promise<void> {
    const to = await askPath(`Rename or move “${baseName(path)}”`, 'New path in the session’s folder', path, 'Rename');
    if (to === null || to === path) return;
    await this.act(async () => {
      await this.fs.move(path, to);
      this.viewer.gone(path);
      await this.tree.refresh([parentOf(path), parentOf(to)]);
      await this.reveal(to, true);
    });
  }

  private async remove(path: string): Promise<void> {
    await this.act(async () => {
      const info = await this.fs.stat(path);
      if (!(await askDelete(info)).ok) return;
      await this.fs.remove(path, info.type === 'dir');
      this.viewer.gone(path);
      this.tree.select(null);
      await this.tree.refresh([parentOf(path)]);
      this.setView('tree');
    });
  }

  private async download(): Promise<void> {
    const dir = this.tree.currentFolder;
    await askArchive(this.fs, dir, dir === '.' ? 'the session’s folder' : `“${dir}”`);
  }

  private async act(run: () => Promise<void>): Promise<void> {
    this.error.textContent = '';
    try {
      await run();
    } catch (err) {
      this.error.textContent = errorMessage(err);
    }
  }

  /** Drops of files anywhere on the tab upload them; on a folder row, into that folder. */
  private listenForDrops(): void {
    const hasFiles = (ev: DragEvent): boolean => ev.dataTransfer?.types.includes('Files') === true;
    let depth = 0;
    this.el.addEventListener('dragenter', (ev) => {
      if (!hasFiles(ev)) return;
      depth++;
      this.drop.hidden = false;
      this.drop.textContent = `Drop files to upload them into ${this.tree.currentFolder === '.' ? 'the session’s folder' : this.tree.currentFolder}`;
    });
    this.el.addEventListener('dragleave', () => {
      if (--depth <= 0) {
        depth = 0;
        this.drop.hidden = true;
      }
    });
    this.el.addEventListener('dragover', (ev) => {
      if (!hasFiles(ev)) return;
      ev.preventDefault();
      if (ev.dataTransfer) ev.dataTransfer.dropEffect = 'copy';
    });
    this.el.addEventListener('drop', (ev) => {
      if (!hasFiles(ev)) return;
      ev.preventDefault();
      depth = 0;
      this.drop.hidden = true;
      const row = (ev.target as HTMLElement).closest<HTMLElement>('.ft-row[data-type="dir"]');
      const dir = row?.dataset.path ?? this.tree.currentFolder;
      this.uploads.add(dir, [...(ev.dataTransfer?.files ?? [])]);
    });
  }
}
