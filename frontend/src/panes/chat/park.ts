// Chunks of the chat far from view are parked: taken out of the document
// and replaced by an empty spacer of their height, kept in memory, and put
// back when the spacer comes near the view. A long chat read page by page
// (older.ts) thus holds in the document only what is on screen and around
// it, whatever its length (issue 28: at most 20,000 elements). The swap
// keeps the height, so what is on screen does not move; the chunk keeps
// its height as its placeholder size too (content-visibility), so putting
// it back does not either. The in-chat find and a search hit reach parked
// messages through parkedChunks and unpark (chat-find.ts, search-palette.ts).
import { h } from '../../dom';

/** How far (px) beyond the view chunks stay in the document. */
const marginPx = 3000;
/** Chunks kept in the document however far (the newest page holds five). */
const keptChunks = 8;

/** Each parked chunk's spacer (the chunk itself is only here while parked). */
const spacers = new Map<HTMLElement, HTMLElement>();
/** Chunks put back for a find or a search hit: not parked again before they come into view. */
const pinned = new WeakSet<HTMLElement>();

/** The parked chunks (their messages are not in the document), oldest parked first. */
export function parkedChunks(): HTMLElement[] {
  return [...spacers.keys()];
}

/**
 * Puts el's chunk back in the document when it is parked (inside within,
 * when given), and keeps it there until it has come into view; true when
 * it was parked.
 */
export function unpark(el: HTMLElement, within?: HTMLElement): boolean {
  const chunk = el.closest<HTMLElement>('.chat-chunk');
  if (chunk === null) return false;
  const spacer = spacers.get(chunk);
  if (spacer === undefined) {
    if (chunk.isConnected && (within === undefined || within.contains(chunk))) pinned.add(chunk);
    return false;
  }
  if (within !== undefined && !within.contains(spacer)) return false;
  pinned.add(chunk);
  spacers.delete(chunk);
  if (spacer.isConnected) spacer.replaceWith(chunk);
  return true;
}

/** Puts every parked chunk of log back (a find over the whole chat); the far ones are parked again later. */
export function unparkAll(log: HTMLElement): void {
  for (const [chunk, spacer] of [...spacers]) {
    if (!log.contains(spacer)) continue;
    spacers.delete(chunk);
    spacer.replaceWith(chunk);
  }
}

/** Parks log's chunks far from the view of scroller, and puts them back as they near it. */
export class Parking {
  private readonly io: IntersectionObserver;
  private readonly mo: MutationObserver;
  /** Chunks of the log outside the margin, as last reported. */
  private readonly far = new Set<HTMLElement>();

  constructor(private readonly log: HTMLElement, scroller: HTMLElement) {
    this.io = new IntersectionObserver((entries) => this.seen(entries), { root: scroller, rootMargin: `${marginPx}px 0px` });
    this.mo = new MutationObserver((records) => {
      for (const r of records) {
        for (const n of r.addedNodes) if (n instanceof HTMLElement) this.io.observe(n);
        for (const n of r.removedNodes) {
          if (!(n instanceof HTMLElement)) continue;
          this.io.unobserve(n);
          // A spacer removed by anything but unpark (a clear of the log): its chunk goes too.
          for (const [chunk, spacer] of spacers) if (spacer === n && !spacer.isConnected) spacers.delete(chunk);
        }
      }
    });
    this.mo.observe(log, { childList: true });
    for (const el of Array.from(log.children)) this.io.observe(el);
  }

  dispose(): void {
    this.io.disconnect();
    this.mo.disconnect();
    for (const [chunk, spacer] of [...spacers]) if (this.log.contains(spacer)) spacers.delete(chunk);
  }

  private seen(entries: IntersectionObserverEntry[]): void {
    for (const e of entries) {
      const el = e.target as HTMLElement;
      if (el.classList.contains('chat-parked')) {
        if (e.isIntersecting && el.isConnected) this.back(el);
        continue;
      }
      if (e.isIntersecting) pinned.delete(el);
      if (e.isIntersecting || !el.isConnected) this.far.delete(el);
      else this.far.add(el);
    }
    this.sweep();
  }

  /** Parks far chunks while more than keptChunks are in the document. */
  private sweep(): void {
    let attached = this.log.getElementsByClassName('chat-chunk').length;
    for (const el of [...this.far]) {
      if (attached <= keptChunks) return;
      if (!el.isConnected || el.parentElement !== this.log) {
        this.far.delete(el);
        continue;
      }
      if (pinned.has(el) || el === this.log.lastElementChild) continue;
      this.far.delete(el);
      if (this.park(el, el.getBoundingClientRect().height)) attached--;
    }
  }

  private park(chunk: HTMLElement, height: number): boolean {
    if (height <= 0) return false; // not laid out (a hidden pane): nothing to keep
    chunk.style.containIntrinsicSize = `auto ${height}px`;
    // The spacer names the messages it stands for (tests read them; nothing else does).
    const uuids = Array.from(chunk.querySelectorAll<HTMLElement>('[data-uuid]'), (el) => el.dataset.uuid ?? '').join(' ');
    const spacer = h('div', { class: 'chat-parked', 'aria-hidden': 'true', 'data-uuids': uuids });
    spacer.style.height = `${height}px`;
    spacers.set(chunk, spacer);
    chunk.replaceWith(spacer);
    return true;
  }

  private back(spacer: HTMLElement): void {
    for (const [chunk, s] of spacers) {
      if (s === spacer) {
        unpark(chunk);
        return;
      }
    }
  }
}
