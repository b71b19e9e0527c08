// The composer's completion popup: `/` at the start of the message lists
// the CLI's slash commands, `@` completes a path of the session's files.
// ArrowUp/Down move, Enter or Tab picks, Escape closes (and only closes:
// the keys are taken in the capture phase on the composer, before the
// composer sends on Enter or the pane cancels a turn on Escape); a click or
// tap picks too. The box is a textbox with list autocompletion whose active
// option is its aria-activedescendant (a textarea cannot take the combobox
// role, and aria-expanded is not allowed on a textbox).
import { errorMessage } from '../../api';
import { h, setText } from '../../dom';
import { countUse, rankCommands } from './command-rank';
import { trigger, type CompletionSource, type SlashCommand, type Trigger } from './complete-source';
import './completion.css';

interface Item {
  /** What replaces the trigger text. */
  insert: string;
  label: string;
  detail: string;
}

let nextId = 0;

export class Completion {
  readonly el: HTMLElement;
  private readonly list: HTMLElement;
  private readonly status: HTMLElement;
  private readonly listId = `chat-complete-${++nextId}`;
  private items: Item[] = [];
  private active = 0;
  private at: Trigger | null = null;
  /** Answers older than the latest request are dropped. */
  private seq = 0;

  constructor(private readonly input: HTMLTextAreaElement, host: HTMLElement, private readonly src: CompletionSource) {
    this.list = h('div', { class: 'chat-complete-list', id: this.listId, role: 'listbox', 'aria-label': 'Completions' });
    this.status = h('div', { class: 'chat-complete-status', role: 'status' });
    this.el = h('div', { class: 'chat-complete', hidden: true }, this.status, this.list);
    // Keep the focus (and the caret) in the box when an option is pressed.
    this.el.addEventListener('mousedown', (ev) => ev.preventDefault());
    this.list.addEventListener('click', (ev) => this.clicked(ev));
    input.setAttribute('aria-autocomplete', 'list');
    input.setAttribute('aria-controls', this.listId);
    input.addEventListener('input', () => this.update());
    input.addEventListener('click', () => this.update());
    input.addEventListener('blur', () => this.close());
    host.addEventListener('keydown', (ev) => this.onKey(ev), true);
    host.addEventListener('submit', () => this.close()); // sent with the list open (no match)
    host.prepend(this.el);
  }

  get open(): boolean {
    return this.at !== null;
  }

  /** Re-reads the text at the caret and opens, refreshes or closes the list. */
  update(): void {
    const t = this.input.selectionStart === this.input.selectionEnd ? trigger(this.input.value, this.input.selectionStart) : null;
    if (t === null) return this.close();
    const kindChanged = this.at?.kind !== t.kind;
    this.at = t;
    const seq = ++this.seq;
    if (this.items.length === 0 || kindChanged) this.show([], 'loading…');
    const load = t.kind === 'command'
      ? this.src.commands().then((cs) => rankCommands(cs, t.query).map(commandItem))
      : this.src.files(t.query).then((fs) => fs.map(fileItem));
    load.then((items) => {
      if (seq === this.seq && this.at !== null) this.show(items, items.length === 0 ? `no ${t.kind === 'command' ? 'command' : 'file'} matches` : '');
    }, (err: unknown) => {
      if (seq === this.seq && this.at !== null) this.show([], errorMessage(err));
    });
  }

  close(): void {
    this.seq++;
    this.at = null;
    this.items = [];
    this.el.hidden = true;
    this.list.replaceChildren();
    this.input.removeAttribute('aria-activedescendant');
  }

  private show(items: Item[], status: string): void {
    this.items = items;
    this.active = 0;
    setText(this.status, status);
    this.status.hidden = status === '';
    this.list.replaceChildren(...items.map((it, i) => h('div', {
      class: 'chat-complete-option', role: 'option', id: `${this.listId}-${i}`, 'data-index': i, 'aria-selected': 'false',
    }, h('span', { class: 'chat-complete-label' }, it.label), h('span', { class: 'chat-complete-detail' }, it.detail))));
    this.el.hidden = false;
    this.highlight();
  }

  private highlight(): void {
    this.list.querySelectorAll('[aria-selected="true"]').forEach((o) => o.setAttribute('aria-selected', 'false'));
    const opt = this.list.children[this.active];
    if (opt === undefined) return this.input.removeAttribute('aria-activedescendant');
    opt.setAttribute('aria-selected', 'true');
    this.input.setAttribute('aria-activedescendant', opt.id);
    opt.scrollIntoView({ block: 'nearest' });
  }

  private onKey(ev: KeyboardEvent): void {
    if (!this.open || ev.target !== this.input || ev.isComposing || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const n = this.items.length;
    if (ev.key === 'Escape') this.close();
    else if ((ev.key === 'ArrowDown' || ev.key === 'ArrowUp') && n > 0) {
      this.active = (this.active + (ev.key === 'ArrowDown' ? 1 : n - 1)) % n;
      this.highlight();
    } else if ((ev.key === 'Enter' || ev.key === 'Tab') && !ev.shiftKey && n > 0) this.pick(this.active);
    else return;
    ev.preventDefault();
    ev.stopPropagation();
  }

  private clicked(ev: MouseEvent): void {
    const opt = (ev.target as Element).closest<HTMLElement>('[role="option"]');
    if (opt !== null) this.pick(Number(opt.dataset.index));
  }

  /** Replaces the trigger text with the item, a space after it, caret after. */
  private pick(i: number): void {
    const it = this.items[i];
    if (it === undefined || this.at === null) return;
    if (this.at.kind === 'command') countUse(it.insert.slice(1));
    const v = this.input.value;
    const caret = this.input.selectionStart;
    const rest = v.slice(caret).replace(/^\S*/, ''); // the rest of the word being completed
    const text = it.insert + (rest.startsWith(' ') ? '' : ' ');
    this.input.value = v.slice(0, this.at.start) + text + rest;
    const pos = this.at.start + text.length + (rest.startsWith(' ') ? 1 : 0);
    this.input.setSelectionRange(pos, pos);
    this.close();
    this.input.focus();
    // The composer sizes the box on input; we see it too and stay closed.
    this.input.dispatchEvent(new Event('input'));
  }
}

function commandItem(c: SlashCommand): Item {
  const hint = c.argumentHint !== '' && c.argumentHint !== undefined ? ` ${c.argumentHint}` : '';
  return { insert: `/${c.name}`, label: `/${c.name}${hint}`, detail: c.description };
}

function fileItem(path: string): Item {
  const slash = path.lastIndexOf('/');
  return { insert: `@${path}`, label: path.slice(slash + 1), detail: slash < 0 ? '' : path.slice(0, slash + 1) };
}
