// In-chat find (Ctrl+F over a chat, or the find button): finds words in the
// loaded transcript of the chat in view, message by message, with next and
// previous. The browser's own find cannot: chunks off screen are skipped
// by content-visibility, and matches there would not scroll into view.
// A chat shows its newest page first (older.ts): "Search earlier" reads
// the rest of it, and the find runs again over the whole chat.
import { h } from '../dom';
import { loadAllEvent, olderLoadedEvent } from '../panes/chat/older';
import { unpark, unparkAll } from '../panes/chat/park';
import '../styles/search.css';

/** The chat log shown now, if any. */
export function visibleChatLog(): HTMLElement | null {
  for (const el of document.querySelectorAll<HTMLElement>('.chat-log')) {
    if (el.getClientRects().length > 0) return el;
  }
  return null;
}

export class ChatFind {
  readonly button: HTMLButtonElement;
  private readonly bar: HTMLElement;
  private readonly input: HTMLInputElement;
  private readonly count: HTMLElement;
  private log: HTMLElement | null = null;
  /** Reads the older pages of the chat in view (shown while it has some). */
  private readonly earlier: HTMLButtonElement;
  private reading = false;
  private found: HTMLElement[] = [];
  private at = -1;

  constructor() {
    this.input = h('input', { type: 'search', class: 'find-input', placeholder: 'Find in this chat', 'aria-label': 'Find in this chat',
      autocomplete: 'off', onInput: () => this.run(), onKeydown: (ev: KeyboardEvent) => this.onKey(ev) });
    this.count = h('span', { class: 'find-count muted', role: 'status' });
    const btn = (label: string, text: string, fn: () => void): HTMLButtonElement =>
      h('button', { class: 'icon-btn', type: 'button', 'aria-label': label, title: label, onClick: fn }, text);
    this.earlier = h('button', { class: 'btn btn-small find-earlier', type: 'button', hidden: true, onClick: () => this.readEarlier() }, 'Search earlier');
    this.bar = h('div', { class: 'find-bar', role: 'search', hidden: true }, this.input, this.count, this.earlier,
      btn('Previous match', '↑', () => this.step(-1)), btn('Next match', '↓', () => this.step(1)), btn('Close find', '✕', () => this.close()));
    this.button = h('button', { class: 'icon-btn find-btn', type: 'button', 'aria-label': 'Find in this chat (Ctrl+F)',
      title: 'Find in this chat (Ctrl+F)', onClick: () => this.open() }, 'Find');
    document.body.append(this.bar);
  }

  dispose(): void {
    this.close();
    this.bar.remove();
  }

  /** Opens the bar over the chat in view; false when no chat is in view. */
  open(): boolean {
    const log = visibleChatLog();
    if (log === null) return false;
    if (log !== this.log) {
      this.clear();
      this.log?.removeEventListener(olderLoadedEvent, this.onOlder);
      this.reading = false;
      log.addEventListener(olderLoadedEvent, this.onOlder);
    }
    this.log = log;
    this.bar.hidden = false;
    this.input.select();
    this.run();
    return true;
  }

  close(): void {
    this.clear();
    this.log?.removeEventListener(olderLoadedEvent, this.onOlder);
    this.reading = false;
    this.log = null;
    this.bar.hidden = true;
  }

  private clear(): void {
    for (const el of this.found) el.classList.remove('find-hit', 'find-current');
    this.found = [];
    this.at = -1;
    this.count.textContent = '';
  }

  /** Reads every older page of the chat; the find runs again once they are in. */
  private readEarlier(): void {
    if (this.log === null || this.reading) return;
    this.reading = true;
    this.renderEarlier();
    this.log.dispatchEvent(new CustomEvent(loadAllEvent));
  }

  private readonly onOlder = (): void => {
    if (this.log?.dataset.older === 'true') return;
    this.reading = false;
    this.run();
  };

  private renderEarlier(): void {
    this.earlier.hidden = this.log?.dataset.older !== 'true';
    this.earlier.disabled = this.reading;
    this.earlier.textContent = this.reading ? 'Reading…' : 'Search earlier';
  }

  private run(): void {
    this.clear();
    this.renderEarlier();
    const q = this.input.value.trim().toLowerCase();
    if (q === '' || this.log === null) return;
    unparkAll(this.log); // the chunks far from view too (they are parked again as they were)
    for (const el of this.log.querySelectorAll<HTMLElement>('[data-uuid]')) {
      if ((el.textContent ?? '').toLowerCase().includes(q)) this.found.push(el);
    }
    for (const el of this.found) el.classList.add('find-hit');
    this.at = this.found.length; // the first step goes to the newest match
    this.step(-1);
  }

  private step(d: number): void {
    const n = this.found.length;
    if (n === 0) {
      this.count.textContent = this.input.value.trim() === '' ? '' : 'No matches';
      return;
    }
    this.found[this.at]?.classList.remove('find-current');
    this.at = (this.at + d + n) % n;
    const el = this.found[this.at];
    if (el !== undefined) unpark(el);
    el?.classList.add('find-current');
    el?.scrollIntoView({ block: 'center' });
    this.count.textContent = `${this.at + 1} of ${n}`;
  }

  private onKey(ev: KeyboardEvent): void {
    if (ev.key === 'Enter') this.step(ev.shiftKey ? -1 : 1);
    else if (ev.key === 'Escape') this.close();
    else return;
    ev.preventDefault();
  }
}

/**
 * Installs Ctrl/⌘+K (palette) and Ctrl/⌘+F (find, only while a chat is in
 * view: elsewhere the browser's find stays). Returns the remover.
 */
export function installSearchKeys(palette: () => void, find: ChatFind): () => void {
  const onKey = (ev: KeyboardEvent): void => {
    if (!(ev.ctrlKey || ev.metaKey) || ev.altKey || ev.shiftKey) return;
    if (ev.code === 'KeyK') palette();
    else if (ev.code !== 'KeyF' || !find.open()) return;
    ev.preventDefault();
    ev.stopPropagation();
  };
  window.addEventListener('keydown', onKey, true);
  return () => window.removeEventListener('keydown', onKey, true);
}
