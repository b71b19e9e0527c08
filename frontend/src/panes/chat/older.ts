// The older pages of a chat. The chat opens on its newest page only
// (connection.ts), so opening costs the same whatever the length; the
// pages before it are read (GET …/messages?before=) as the person scrolls
// near the top, when a search hit or the in-chat find needs them, or with
// the "Show earlier messages" button (keyboard). Each page is rendered on
// its own by a Transcript of its own (readBack cut it where no message
// refers to a call before it) and its chunks are put in front of the log
// in one insertion; the view is then moved by what was added above it, so
// what the person reads does not jump.
import { h } from '../../dom';
import { readBack, type FetchOlder, type StoredMessage } from './history';
import { Transcript } from './transcript';

/** Messages per page read as the person scrolls up. */
export const olderPageSize = 300;
/** Messages per page read while looking for one message (a search hit) or everything (find). */
const huntPageSize = 2000;
/** How far above the view (px) the next older page is read. */
const aheadPx = 1600;

/** The window event a search hit sends for the chat that should show uuid (app.ts). */
export const revealEvent = 'agentdesk:reveal-message';
export interface RevealDetail {
  sid: string;
  /** '' = the session's default tab. */
  wid: string;
  uuid: string;
}

/** The event the in-chat find sends on a chat log to read all its older pages (chat-find.ts). */
export const loadAllEvent = 'agentdesk:load-older';
/** The event a chat log sends when its older pages were read (more or all of them). */
export const olderLoadedEvent = 'agentdesk:older-loaded';

export interface OlderOptions {
  /** The live transcript (its log gets the older pages in front). */
  transcript: Transcript;
  /** The scrolling box around the log. */
  scroller: HTMLElement;
  fetch: FetchOlder;
  /** A new chunk of an older page (the copy buttons watch it). */
  onChunk: (chunk: HTMLElement) => void;
  /** After a page was put in (copy buttons in view). */
  inserted: () => void;
  /** Asks for the transcript's queued lines to be rendered (a frame whose end calls maybeLoad). */
  render: () => void;
}

export class OlderPages {
  /** Above the log: the button, or what is being read. */
  readonly el: HTMLElement;
  private readonly button: HTMLButtonElement;
  /** The uuid the next page is read before ('' = nothing older). */
  private next = '';
  private armed = false;
  private busy: Promise<boolean> | null = null;
  /** Uuids of the messages of the older pages read. */
  private readonly loaded = new Set<string>();
  private wanted: string | null = null;
  private readonly io: IntersectionObserver;
  private disposed = false;

  constructor(private readonly o: OlderOptions) {
    this.button = h('button', { class: 'btn btn-small chat-older-btn', type: 'button', onClick: () => void this.loadOne() }, 'Show earlier messages');
    this.el = h('div', { class: 'chat-older', hidden: true }, this.button);
    this.io = new IntersectionObserver(() => this.maybeLoad(), { root: o.scroller, rootMargin: `${aheadPx}px 0px 0px 0px` });
    this.io.observe(this.el);
    // The observer reports only crossings: one that came while the newest page was still being
    // rendered (maybeLoad waits then) would not come again; every scroll looks once more.
    o.scroller.addEventListener('scroll', () => this.maybeLoad(), { passive: true });
    o.transcript.el.addEventListener(loadAllEvent, () => void this.loadAll());
  }

  /** The newest page is read: older pages are read before uuid next ('' none). */
  setNext(next: string): void {
    this.next = next;
    this.render();
  }

  /** The newest page is shown: from now on reading older pages may begin. */
  arm(): void {
    this.armed = true;
    this.render();
    if (this.wanted !== null) void this.hunt();
    else this.maybeLoad();
  }

  /** Forgets the older pages (the history was reset: the socket replays all of it). */
  clear(): void {
    this.next = '';
    this.armed = false;
    this.loaded.clear();
    this.wanted = null;
    this.render();
  }

  dispose(): void {
    this.disposed = true;
    this.io.disconnect();
  }

  /** Reads older pages until message uuid is read (a search hit), or none is left. */
  want(uuid: string): void {
    this.wanted = uuid;
    if (this.armed) void this.hunt();
  }

  /** Whether older messages remain to be read. */
  get more(): boolean {
    return this.next !== '';
  }

  /** Reads the next older page when the top of the log is near the view. */
  maybeLoad(): void {
    if (!this.armed || this.next === '' || this.busy !== null) return;
    if (this.o.transcript.pending) {
      // Lines still wait to be rendered: the frame that renders them looks again. Ask for
      // it, as nothing else may (a person at the top would otherwise wait for good).
      this.o.render();
      return;
    }
    const top = this.o.scroller.getBoundingClientRect().top;
    if (this.o.scroller.clientHeight === 0 || this.el.getBoundingClientRect().bottom < top - aheadPx) return;
    void this.loadOne();
  }

  /** Reads every older page (the in-chat find over the whole chat). */
  async loadAll(): Promise<void> {
    while (!this.disposed && this.next !== '' && await this.loadOne(huntPageSize));
  }

  private async hunt(): Promise<void> {
    while (!this.disposed && this.wanted !== null && !this.holds(this.wanted) && this.next !== '') {
      if (!await this.loadOne(huntPageSize)) break;
    }
    this.wanted = null;
  }

  private holds(uuid: string): boolean {
    return this.loaded.has(uuid) || this.o.transcript.has(uuid);
  }

  /** Reads and shows the next older page; false when none was read. */
  private loadOne(limit = olderPageSize): Promise<boolean> {
    if (this.busy !== null) return this.busy;
    if (!this.armed || this.next === '') return Promise.resolve(false);
    const p = this.read(limit).finally(() => {
      this.busy = null;
      this.render();
      requestAnimationFrame(() => this.maybeLoad());
    });
    this.busy = p;
    this.render();
    return p;
  }

  private async read(limit: number): Promise<boolean> {
    const before = this.next;
    const page = await readBack(this.o.fetch, before, limit).catch(() => null);
    // A reset or another read meanwhile: this page is not the one before the log any more.
    if (page === null || this.disposed || this.next !== before) return false;
    this.insert(page.messages);
    this.next = page.next;
    this.render();
    this.o.transcript.el.dispatchEvent(new CustomEvent(olderLoadedEvent));
    return true;
  }

  /** Renders msgs (oldest first) off the document and puts them in front of the log without moving the view. */
  private insert(msgs: StoredMessage[]): void {
    const t = new Transcript(this.o.onChunk);
    for (const m of msgs) {
      t.add(m.message, m.html);
      const u = m.message.uuid;
      if (typeof u === 'string' && u !== '') this.loaded.add(u);
    }
    while (t.flush(Number.POSITIVE_INFINITY));
    const log = this.o.transcript.el;
    const anchor = firstInView(log, this.o.scroller);
    const was = anchor?.getBoundingClientRect().top ?? 0;
    log.prepend(...Array.from(t.el.children));
    // The browser's scroll anchoring may have kept the view already; move it by what is left.
    if (anchor !== null) this.o.scroller.scrollTop += anchor.getBoundingClientRect().top - was;
    this.o.inserted();
  }

  private render(): void {
    const shown = this.next !== '' && this.armed;
    this.el.hidden = !shown;
    this.o.transcript.el.dataset.older = String(this.next !== '');
    const busy = this.busy !== null;
    this.button.disabled = busy;
    this.button.textContent = busy ? 'Reading earlier messages…' : 'Show earlier messages';
  }
}

/** The first chunk of log whose box reaches into the scroller's view. */
function firstInView(log: HTMLElement, scroller: HTMLElement): HTMLElement | null {
  const top = scroller.getBoundingClientRect().top;
  for (const el of Array.from(log.children) as HTMLElement[]) {
    if (el.getBoundingClientRect().bottom > top) return el;
  }
  return null;
}
