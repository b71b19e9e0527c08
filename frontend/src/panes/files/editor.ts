// Editing one file: the editor (cm.ts, loaded on first use), Save with
// the ETag the text was read with, and a clear choice when the file
// changed on disk meanwhile. A draft outlives the editor: switching files
// or tabs keeps the edits (and CodeMirror's state, so undo works) until
// they are saved or discarded.
import { ApiError, errorMessage } from '../../api';
import { h } from '../../dom';
import { askConfirm } from '../../components/dialog';
import type { FsApi } from './api';
import type { EditorHandle } from './cm';

/** One file being edited. */
export interface Draft {
  path: string;
  /** The version the edits are based on. */
  etag: string;
  /** The text as read (or last saved). */
  base: string;
  text: string;
  /** CodeMirror's state while no editor shows the draft (opaque here). */
  state: unknown;
  dirty: boolean;
}

export interface EditingEvents {
  /** The draft became dirty or clean. */
  dirty(): void;
  /** Editing ended (closed with nothing unsaved, or edits discarded). */
  close(): void;
}

export class Editing {
  readonly el: HTMLElement;
  readonly actions: HTMLElement[];
  private readonly host: HTMLElement;
  private readonly conflict: HTMLElement;
  private readonly status: HTMLElement;
  private readonly saveBtn: HTMLButtonElement;
  private handle: EditorHandle | null = null;
  private closed = false;
  private saving = false;

  constructor(private readonly fs: FsApi, private readonly draft: Draft, private readonly on: EditingEvents) {
    this.host = h('div', { class: 'fe-host' });
    this.conflict = h('div', { class: 'fe-conflict', role: 'alert', hidden: true });
    this.status = h('span', { class: 'fe-status', 'aria-live': 'polite' });
    this.saveBtn = h('button', { class: 'btn btn-small btn-primary fe-save', type: 'button', onClick: () => void this.save(null) }, 'Save');
    const done = h('button', { class: 'btn btn-small fe-done', type: 'button', onClick: () => void this.finish() }, 'Done');
    this.actions = [this.status, this.saveBtn, done];
    this.el = h('div', { class: 'fe' }, this.conflict, this.host);
    this.renderStatus('');
  }

  async open(): Promise<void> {
    this.host.replaceChildren(h('p', { class: 'fv-message' }, 'Loading the editor…'));
    try {
      const cm = await import('./cm');
      if (this.closed) return;
      this.host.replaceChildren();
      const d = this.draft;
      this.handle = await cm.openEditor({
        parent: this.host,
        path: d.path,
        doc: (d.state as Parameters<typeof cm.openEditor>[0]['doc'] | null) ?? d.text,
        onChange: (text) => this.changed(text),
        onSave: () => void this.save(null),
      });
      if (this.closed) {
        this.stash();
        return;
      }
      this.handle.focus();
    } catch (err) {
      this.host.replaceChildren(h('p', { class: 'fv-message fv-error', role: 'alert' }, `The editor could not be loaded: ${errorMessage(err)}`));
    }
  }

  /** Hides the editor; the draft keeps text and state. */
  close(): void {
    this.closed = true;
    this.stash();
  }

  focus(): void {
    this.handle?.focus();
  }

  private stash(): void {
    if (this.handle === null) return;
    this.draft.state = this.handle.state();
    this.draft.text = this.handle.text();
    this.handle.destroy();
    this.handle = null;
  }

  private changed(text: string): void {
    this.draft.text = text;
    const dirty = text !== this.draft.base;
    if (dirty !== this.draft.dirty) {
      this.draft.dirty = dirty;
      this.on.dirty();
    }
    this.renderStatus('');
  }

  private renderStatus(note: string): void {
    this.status.textContent = note !== '' ? note : this.draft.dirty ? 'Unsaved changes' : 'No changes';
    this.status.dataset.state = this.draft.dirty ? 'dirty' : 'clean';
    this.saveBtn.disabled = this.saving;
  }

  /** Saves over etag (null: the version the draft is based on). */
  private async save(etag: string | null): Promise<void> {
    if (this.saving) return;
    this.saving = true;
    this.renderStatus('Saving…');
    const d = this.draft;
    const text = this.handle?.text() ?? d.text;
    try {
      const saved = await this.fs.save(d.path, text, etag ?? d.etag);
      d.etag = saved.etag ?? d.etag;
      d.base = text;
      d.dirty = d.text !== text;
      this.conflict.hidden = true;
      this.on.dirty();
      this.saving = false;
      this.renderStatus(`Saved at ${new Date().toLocaleTimeString()}`);
    } catch (err) {
      this.saving = false;
      if (err instanceof ApiError && err.status === 412) this.showConflict();
      else this.renderStatus(`Not saved: ${errorMessage(err)}`);
      this.status.dataset.state = 'error';
    }
  }

  private showConflict(): void {
    this.renderStatus('Not saved');
    this.status.dataset.state = 'error';
    this.conflict.replaceChildren(
      h('p', null, h('strong', null, 'The file changed on disk after you opened it. '),
        'Your edits are still here, not saved. Saving them now would replace the other changes.'),
      h('div', { class: 'fe-conflict-actions' },
        h('button', { class: 'btn btn-small btn-danger fe-overwrite', type: 'button', onClick: () => void this.overwrite() }, 'Save mine over it'),
        h('button', { class: 'btn btn-small fe-reload', type: 'button', onClick: () => void this.reload() }, 'Drop mine, load the disk version'),
        h('button', { class: 'btn btn-small', type: 'button', onClick: () => { this.conflict.hidden = true; this.handle?.focus(); } }, 'Keep editing')));
    this.conflict.hidden = false;
  }

  /** Saves over whatever is on disk now. */
  private async overwrite(): Promise<void> {
    try {
      const { etag } = await this.fs.text(this.draft.path);
      await this.save(etag);
    } catch (err) {
      this.renderStatus(`Not saved: ${errorMessage(err)}`);
    }
  }

  /** Replaces the edits with the file as it is on disk now. */
  private async reload(): Promise<void> {
    try {
      const { text, etag } = await this.fs.text(this.draft.path);
      const d = this.draft;
      Object.assign(d, { etag, base: text, text, dirty: false });
      const v = this.handle?.view;
      v?.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: text } });
      this.conflict.hidden = true;
      this.on.dirty();
      this.renderStatus('Loaded from disk');
    } catch (err) {
      this.renderStatus(`Could not load: ${errorMessage(err)}`);
    }
  }

  /** Done: back to the view; unsaved edits are dropped only when the person says so. */
  private async finish(): Promise<void> {
    if (this.draft.dirty) {
      const a = await askConfirm({
        title: 'Discard your changes?',
        body: [`${this.draft.path} has unsaved changes. They are lost if you leave the editor now.`],
        confirm: 'Discard changes',
        danger: true,
      });
      if (!a.ok) return;
    }
    this.on.close();
  }
}
