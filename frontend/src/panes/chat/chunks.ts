// The transcript's top-level element list. Elements go into chunks of
// chunkSize: the browser skips layout and paint of off-screen chunks
// (content-visibility in chat.css), and tracks a few hundred chunks instead
// of one observer target per message.
//
// A bulk of stored history is built off the document (stage, then commit):
// rendered in order into detached chunks and attached in one append. Built
// in the document instead, every slice of old messages would be laid out and
// painted at the bottom of the view only to scroll out of it at the next
// slice; attached at once, only the chunks in view are laid out.
import { h } from '../../dom';

/** Top-level elements per chunk. */
const chunkSize = 40;

export class ChunkedLog {
  readonly el: HTMLElement;
  private chunk: HTMLElement | null = null;
  private staging: DocumentFragment | null = null;

  /** onChunk: a chunk was made (the copy buttons watch it). */
  constructor(private readonly onChunk: (chunk: HTMLElement) => void = () => undefined) {
    this.el = h('div', { class: 'chat-log', role: 'log', 'aria-label': 'Conversation' });
  }

  /** True between stage() and commit(): new chunks are not in the document yet. */
  get staged(): boolean {
    return this.staging !== null;
  }

  /** The chunk new top-level elements go to (a fresh one once it is full). */
  tail(): HTMLElement {
    if (this.chunk === null || this.chunk.childElementCount >= chunkSize) {
      this.chunk = h('div', { class: 'chat-chunk' });
      (this.staging ?? this.el).append(this.chunk);
      this.onChunk(this.chunk);
    }
    return this.chunk;
  }

  /** New chunks go off the document until commit(). */
  stage(): void {
    if (this.staging !== null) return;
    this.staging = document.createDocumentFragment();
    this.chunk = null; // the last attached chunk stays as it is
  }

  /** Attaches the staged chunks after the others, in one append. */
  commit(): void {
    if (this.staging === null) return;
    this.el.append(this.staging);
    this.staging = null;
  }

  /** Removes every element. */
  clear(): void {
    this.staging = null;
    this.chunk = null;
    this.el.replaceChildren();
  }
}
