// The right-hand side of the Files tab: one file shown by what its bytes
// are (text with highlighting, markdown rendered by the server's sanitizer,
// an image, a PDF in the browser's viewer, anything else as a download),
// with its actions. Editing is editor.ts's; the viewer hands over to it.
import { errorMessage } from '../../api';
import { highlightBlocks } from '../../code/highlight';
import { h } from '../../dom';
import type { FsApi, FsView } from './api';
import { Editing, type Draft } from './editor';
import { baseName, formatSize, formatTime, parentOf } from './model';
import { TextView } from './textview';

export interface ViewerEvents {
  /** Phone layout: back to the tree. */
  back(): void;
  rename(path: string): void;
  remove(path: string): void;
  /** The files with unsaved edits changed. */
  dirty(paths: Set<string>): void;
}

export class Viewer {
  readonly el: HTMLElement;
  private readonly title: HTMLElement;
  private readonly meta: HTMLElement;
  private readonly actions: HTMLElement;
  private readonly body: HTMLElement;
  private readonly drafts = new Map<string, Draft>();
  private text: TextView | null = null;
  private editing: Editing | null = null;
  private view: FsView | null = null;
  private seq = 0;
  path: string | null = null;

  constructor(private readonly fs: FsApi, private readonly on: ViewerEvents) {
    const back = h('button', { class: 'btn btn-small fv-back', type: 'button', onClick: () => on.back() }, '‹ Files');
    this.title = h('h3', { class: 'fv-title' });
    this.meta = h('span', { class: 'fv-meta' });
    this.actions = h('div', { class: 'fv-actions' });
    this.body = h('div', { class: 'fv-body' });
    this.el = h('section', { class: 'fv', 'aria-label': 'File' },
      h('div', { class: 'fv-head' }, back, h('div', { class: 'fv-names' }, this.title, this.meta), this.actions), this.body);
    this.empty();
  }

  /** Paths with unsaved edits. */
  get dirtyPaths(): Set<string> {
    return new Set([...this.drafts.values()].filter((d) => d.dirty).map((d) => d.path));
  }

  /** Shows path: its draft in the editor when it has one, else its first view. */
  async show(path: string): Promise<void> {
    this.leave();
    this.path = path;
    const seq = ++this.seq;
    this.title.textContent = baseName(path);
    this.title.title = path;
    this.meta.textContent = parentOf(path) === '.' ? '' : parentOf(path);
    this.actions.replaceChildren();
    const draft = this.drafts.get(path);
    if (draft !== undefined) {
      await this.edit(draft);
      return;
    }
    this.body.replaceChildren(h('p', { class: 'fv-message' }, 'Loading…'));
    let v: FsView;
    try {
      v = await this.fs.view(path);
    } catch (err) {
      if (seq === this.seq) this.body.replaceChildren(h('p', { class: 'fv-message fv-error', role: 'alert' }, errorMessage(err)));
      return;
    }
    if (seq !== this.seq) return;
    this.render(v);
  }

  /** The shown file's folder changed: show it again if it changed and is not being edited. */
  async changed(folders: string[]): Promise<void> {
    const p = this.path;
    if (p === null || this.editing !== null || !folders.includes(parentOf(p))) return;
    const seq = this.seq;
    try {
      const v = await this.fs.view(p);
      if (seq === this.seq && v.etag !== this.view?.etag) this.render(v);
    } catch {
      if (seq === this.seq) this.body.replaceChildren(h('p', { class: 'fv-message' }, `${p} is no longer there.`));
    }
  }

  /** Nothing chosen. */
  empty(): void {
    this.leave();
    this.path = null;
    this.title.textContent = 'No file open';
    this.meta.textContent = '';
    this.actions.replaceChildren();
    this.body.replaceChildren(h('p', { class: 'fv-message' }, 'Choose a file in the tree, or drop files here to upload them.'));
  }

  /** A path was renamed or deleted: forget its draft, clear it if shown. */
  gone(path: string): void {
    this.drafts.delete(path);
    this.on.dirty(this.dirtyPaths);
    if (this.path === path) this.empty();
  }

  private render(v: FsView): void {
    this.leave();
    this.view = v;
    this.meta.textContent = `${parentOf(v.path) === '.' ? '' : `${parentOf(v.path)} · `}${formatSize(v.size)} · ${formatTime(v.mtime)}`;
    this.renderActions(v);
    const parts: HTMLElement[] = [];
    if (v.partial) {
      parts.push(h('p', { class: 'fv-partial', role: 'note' }, `Partial view: the first ${formatSize(1 << 20)} of ${formatSize(v.size)} are shown. `,
        h('a', { href: this.fs.fileUrl(v.path, true), download: v.name }, 'Download the whole file')));
    }
    parts.push(this.content(v));
    this.body.replaceChildren(...parts);
  }

  private content(v: FsView): HTMLElement {
    const url = this.fs.fileUrl(v.path);
    switch (v.kind) {
      case 'text':
        this.text = new TextView(v.path, v.text ?? '');
        return this.text.el;
      case 'markdown': {
        const md = h('article', { class: 'md fv-md' });
        md.innerHTML = v.html ?? ''; // sanitized by the server (goldmark, no raw HTML)
        highlightBlocks(md);
        return md;
      }
      case 'image':
        return h('div', { class: 'fv-media' }, h('img', { src: url, alt: v.name }));
      case 'pdf':
        return h('iframe', { class: 'fv-pdf', src: url, title: `PDF: ${v.name}` });
    }
    return h('div', { class: 'fv-message' },
      h('p', null, `${v.name} is a binary file (${formatSize(v.size)}); it cannot be shown here.`),
      h('a', { class: 'btn', href: this.fs.fileUrl(v.path, true), download: v.name }, 'Download'));
  }

  private renderActions(v: FsView): void {
    const items: HTMLElement[] = [];
    if (v.editable) items.push(h('button', { class: 'btn btn-small fv-edit', type: 'button', onClick: () => void this.startEdit(v) }, 'Edit'));
    items.push(
      h('a', { class: 'btn btn-small fv-download', href: this.fs.fileUrl(v.path, true), download: v.name }, 'Download'),
      h('button', { class: 'btn btn-small fv-rename', type: 'button', onClick: () => this.on.rename(v.path) }, 'Rename'),
      h('button', { class: 'btn btn-small btn-danger fv-delete', type: 'button', onClick: () => this.on.remove(v.path) }, 'Delete'));
    this.actions.replaceChildren(...items);
  }

  private async startEdit(v: FsView): Promise<void> {
    this.body.replaceChildren(h('p', { class: 'fv-message' }, 'Opening the editor…'));
    try {
      const { text, etag } = await this.fs.text(v.path);
      const draft: Draft = { path: v.path, etag, base: text, text, state: null, dirty: false };
      this.drafts.set(v.path, draft);
      if (this.path === v.path) await this.edit(draft);
    } catch (err) {
      this.body.replaceChildren(h('p', { class: 'fv-message fv-error', role: 'alert' }, `The file could not be opened for editing: ${errorMessage(err)}`));
    }
  }

  private async edit(draft: Draft): Promise<void> {
    this.leave();
    this.editing = new Editing(this.fs, draft, {
      dirty: () => this.on.dirty(this.dirtyPaths),
      close: () => {
        this.drafts.delete(draft.path);
        this.on.dirty(this.dirtyPaths);
        void this.show(draft.path);
      },
    });
    this.actions.replaceChildren(...this.editing.actions);
    this.body.replaceChildren(this.editing.el);
    await this.editing.open();
  }

  /** Ends what the current file holds: the text view, the editor (its draft stays). */
  private leave(): void {
    this.text?.dispose();
    this.text = null;
    this.editing?.close();
    this.editing = null;
    this.view = null;
  }

  focus(): void {
    if (this.editing !== null) this.editing.focus();
    else this.body.querySelector<HTMLElement>('.fv-text, .fv-edit, a, button')?.focus();
  }

  dispose(): void {
    this.leave();
  }
}
