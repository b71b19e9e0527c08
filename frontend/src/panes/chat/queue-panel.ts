// The chat's durable queue (docs/api-extensions.md, "Queue"), above the
// composer: the messages waiting for the running turn to end, in the order
// they will be sent, one per turn. Each can be edited in place, moved up
// or down, or removed until it is sent. The server owns the queue: every
// change is a REST call, and the list shows only what the server's queue
// frames say, so every tab shows the same. (Not to be confused with
// queue.ts, the transcript's render work queue.)
import { h, reconcile, setText } from '../../dom';
import './queue-panel.css';
import { queuedFiles, type QueuedFile } from './queue-files';

export interface QueueItem {
  id: string;
  content: string;
  createdAt: string;
  notBefore?: string;
  /** Files queued with the message; fixed while it waits. */
  attachments?: QueuedFile[];
}

export interface QueueActions {
  /** PATCH …/queue/:id; rejects with the server's error. */
  edit(id: string, change: { content?: string; position?: number }): Promise<unknown>;
  /** DELETE …/queue/:id. */
  remove(id: string): Promise<unknown>;
  /** A change the server refused (the item was sent meanwhile, …). */
  failed(err: unknown): void;
}

/** The controls of one item, kept across renders. */
interface Row {
  el: HTMLLIElement;
  text: HTMLElement;
  when: HTMLElement;
  up: HTMLButtonElement;
  down: HTMLButtonElement;
  editBtn: HTMLButtonElement;
  editor: HTMLTextAreaElement | null;
}

export class QueuePanel {
  readonly el: HTMLElement;
  private readonly list: HTMLOListElement;
  private readonly title: HTMLElement;
  private readonly rows = new Map<string, HTMLLIElement>();
  private readonly state = new Map<HTMLLIElement, Row>();
  private items: QueueItem[] = [];

  constructor(private readonly actions: QueueActions) {
    this.title = h('span', { class: 'chat-queue-title' });
    this.list = h('ol', { class: 'chat-queue-list', 'aria-label': 'Queued messages' });
    this.el = h('section', { class: 'chat-queue', hidden: true, 'aria-label': 'Queued messages' },
      h('div', { class: 'chat-queue-head' }, this.title,
        h('span', { class: 'chat-queue-note' }, 'sent one per turn, in this order')),
      this.list);
  }

  /** Shows the server's queue (a queue frame). */
  set(items: QueueItem[]): void {
    const focused = this.focusedControl();
    this.items = items;
    reconcile(this.list, items, (it) => it.id, this.rows, (it) => this.create(it), (el, it) => this.update(el, it));
    this.el.hidden = items.length === 0;
    setText(this.title, items.length === 1 ? '1 queued message' : `${items.length} queued messages`);
    // A moved row was taken out of the document, which drops its focus.
    if (focused !== null && document.activeElement !== focused.el) this.refocus(focused.id, focused.role);
  }

  /** Forgets the queue (a new connection: its replay sends the queue again). */
  clear(): void {
    this.set([]);
  }

  private create(it: QueueItem): HTMLLIElement {
    const btn = (role: string, label: string, text: string): HTMLButtonElement =>
      h('button', { class: `btn btn-small chat-queue-${role}`, type: 'button', 'aria-label': label, title: label, 'data-role': role }, text);
    const row: Row = {
      el: h('li', { class: 'chat-queue-item', 'data-id': it.id }),
      text: h('div', { class: 'chat-queue-text' }),
      when: h('span', { class: 'chat-queue-when' }),
      up: btn('up', 'Move up', '↑'),
      down: btn('down', 'Move down', '↓'),
      editBtn: btn('edit', 'Edit', 'Edit'),
      editor: null,
    };
    const remove = btn('remove', 'Remove from the queue', '✕');
    row.up.addEventListener('click', () => this.move(row, -1));
    row.down.addEventListener('click', () => this.move(row, 1));
    row.editBtn.addEventListener('click', () => this.startEdit(row));
    remove.addEventListener('click', () => this.call(this.actions.remove(this.idOf(row))));
    const files = queuedFiles(it.attachments);
    row.el.append(h('div', { class: 'chat-queue-body' }, row.text, ...(files !== null ? [files] : []), row.when),
      h('div', { class: 'chat-queue-buttons' }, row.up, row.down, row.editBtn, remove));
    this.state.set(row.el, row);
    return row.el;
  }

  private update(el: HTMLLIElement, it: QueueItem): void {
    const row = this.state.get(el);
    if (row === undefined) return;
    const i = this.items.findIndex((x) => x.id === it.id);
    if (row.editor === null) setText(row.text, it.content);
    setText(row.when, it.notBefore !== undefined ? `not before ${new Date(it.notBefore).toLocaleString()}` : '');
    row.up.disabled = i <= 0;
    row.down.disabled = i === this.items.length - 1;
  }

  private idOf(row: Row): string {
    return row.el.dataset.id ?? '';
  }

  private move(row: Row, by: number): void {
    const i = this.items.findIndex((x) => x.id === this.idOf(row));
    const to = i + by;
    if (i < 0 || to < 0 || to >= this.items.length) return;
    this.call(this.actions.edit(this.idOf(row), { position: to }));
  }

  /** Replaces the text by an editor: Enter saves, Shift+Enter adds a line, Escape keeps the old text. */
  private startEdit(row: Row): void {
    if (row.editor !== null) {
      row.editor.focus();
      return;
    }
    const old = this.items.find((x) => x.id === this.idOf(row))?.content ?? '';
    const editor = h('textarea', { class: 'chat-queue-editor', 'aria-label': 'Queued message', rows: 3 });
    editor.value = old;
    const save = h('button', { class: 'btn btn-small btn-primary chat-queue-save', type: 'button' }, 'Save');
    const cancel = h('button', { class: 'btn btn-small chat-queue-discard', type: 'button' }, 'Cancel');
    const form = h('div', { class: 'chat-queue-edit' }, editor, h('div', { class: 'chat-queue-edit-buttons' }, cancel, save));
    const close = (): void => {
      row.editor = null;
      form.replaceWith(row.text);
      const cur = this.items.find((x) => x.id === this.idOf(row));
      if (cur !== undefined) setText(row.text, cur.content);
      row.editBtn.focus();
    };
    const commit = (): void => {
      const text = editor.value;
      if (text.trim() === '' || text === old) {
        close();
        return;
      }
      save.disabled = true;
      this.actions.edit(this.idOf(row), { content: text }).then(close, (err: unknown) => {
        save.disabled = false;
        this.actions.failed(err);
      });
    };
    editor.addEventListener('keydown', (ev) => {
      if (ev.key === 'Escape') {
        ev.preventDefault();
        ev.stopPropagation(); // not the pane's Escape (cancel the turn)
        close();
      } else if (ev.key === 'Enter' && !ev.shiftKey && !ev.isComposing) {
        ev.preventDefault();
        commit();
      }
    });
    save.addEventListener('click', commit);
    cancel.addEventListener('click', close);
    row.editor = editor;
    row.text.replaceWith(form);
    editor.focus();
  }

  private call(p: Promise<unknown>): void {
    p.catch((err: unknown) => this.actions.failed(err));
  }

  /** The queue control that has focus: its item and role. */
  private focusedControl(): { id: string; role: string; el: Element } | null {
    const a = document.activeElement;
    if (!(a instanceof HTMLElement) || !this.list.contains(a)) return null;
    const li = a.closest('li');
    return li === null ? null : { id: li.dataset.id ?? '', role: a.dataset.role ?? '', el: a };
  }

  private refocus(id: string, role: string): void {
    const li = this.rows.get(id);
    const btn = li?.querySelector<HTMLButtonElement>(`[data-role="${role}"]`);
    if (btn !== null && btn !== undefined && !btn.disabled) btn.focus();
    else li?.querySelector<HTMLButtonElement>('button:not(:disabled)')?.focus();
  }
}
