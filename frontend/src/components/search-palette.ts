// The command palette (Ctrl+K / ⌘K, or the search button): searches every
// conversation as you type (GET /api/search, debounced) and jumps to the
// chosen message in its session, scrolled to and highlighted.
import type { Api } from '../api';
import { h } from '../dom';
import { trapTab } from '../focus-trap';
import { parkedChunks, unpark } from '../panes/chat/park';
import type { Session } from '../types';
import '../styles/search.css';

/** One hit of GET /api/search (docs/api-extensions.md, "Search"). */
export interface SearchHit {
  sessionId: string;
  workerId: string;
  uuid: string;
  role: string;
  snippet: string;
  createdAt: string;
}

/** Typing pause before a request. */
const debounceMs = 150;

export interface PaletteDeps {
  api: Api;
  session(id: string): Session | undefined;
  /** Opens the session (and worker, '' = its default tab); then reveals uuid. */
  open(sid: string, wid: string, uuid: string): void;
}

export class SearchPalette {
  readonly button: HTMLButtonElement;
  private readonly dialog: HTMLDialogElement;
  private readonly input: HTMLInputElement;
  private readonly list: HTMLElement;
  private readonly status: HTMLElement;
  private hits: SearchHit[] = [];
  private active = 0;
  private timer = 0;
  private asked = 0; // request number, so a late answer never replaces a newer one

  constructor(private readonly deps: PaletteDeps) {
    this.input = h('input', { type: 'search', class: 'palette-input', placeholder: 'Search all conversations…',
      'aria-label': 'Search all conversations', 'aria-controls': 'palette-hits', autocomplete: 'off',
      onInput: () => this.schedule(), onKeydown: (ev: KeyboardEvent) => this.onKey(ev) });
    this.list = h('ul', { class: 'palette-hits', id: 'palette-hits', role: 'listbox', 'aria-label': 'Results' });
    this.status = h('p', { class: 'palette-status muted', role: 'status' });
    this.dialog = h('dialog', { class: 'palette', 'aria-label': 'Search' }, this.input, this.status, this.list);
    this.dialog.addEventListener('keydown', (ev) => trapTab(ev, this.dialog));
    this.dialog.addEventListener('click', (ev) => {
      if (ev.target === this.dialog) this.dialog.close(); // a click on the backdrop
    });
    this.button = h('button', { class: 'icon-btn search-btn', type: 'button', 'aria-label': 'Search all conversations (Ctrl+K)',
      title: 'Search (Ctrl+K)', onClick: () => this.open() }, '⌕');
    document.body.append(this.dialog);
  }

  dispose(): void {
    window.clearTimeout(this.timer);
    this.dialog.remove();
  }

  open(): void {
    if (!this.dialog.open) this.dialog.showModal();
    this.input.select();
  }

  private schedule(): void {
    window.clearTimeout(this.timer);
    this.timer = window.setTimeout(() => void this.run(), debounceMs);
  }

  private async run(): Promise<void> {
    const q = this.input.value.trim();
    const n = ++this.asked;
    if (q === '') {
      this.show([], '');
      return;
    }
    try {
      const res = await this.deps.api.request<{ hits: SearchHit[]; partial?: boolean; behind?: number }>('GET', `/api/search?limit=30&q=${encodeURIComponent(q.slice(0, 256))}`);
      if (n === this.asked) this.show(res.hits, searchStatus(res.hits.length, res.partial === true, res.behind ?? 0));
    } catch (err) {
      if (n === this.asked) this.show([], err instanceof Error ? err.message : String(err));
    }
  }

  private show(hits: SearchHit[], status: string): void {
    this.hits = hits;
    this.active = 0;
    this.status.textContent = status;
    this.list.replaceChildren(...hits.map((hit, i) => this.row(hit, i)));
    this.mark();
  }

  private row(hit: SearchHit, i: number): HTMLElement {
    const s = this.deps.session(hit.sessionId);
    const title = s === undefined ? 'Deleted session' : s.title || s.cwd;
    const when = new Date(hit.createdAt);
    const snippet = h('span', { class: 'palette-snippet' });
    appendSnippet(snippet, hit.snippet);
    return h('li', { class: 'palette-hit', role: 'option', id: `palette-hit-${i}`,
      onClick: () => this.choose(i), onMousemove: () => { this.active = i; this.mark(); } },
      h('span', { class: 'palette-meta' },
        h('span', { class: 'palette-title' }, title),
        h('span', { class: `palette-role role-${hit.role}` }, hit.role),
        h('time', { datetime: hit.createdAt }, isNaN(when.getTime()) ? '' : when.toLocaleString())),
      snippet);
  }

  private mark(): void {
    this.list.querySelectorAll('[aria-selected]').forEach((el) => el.removeAttribute('aria-selected'));
    const el = this.list.children[this.active];
    if (el === undefined) {
      this.input.removeAttribute('aria-activedescendant');
      return;
    }
    el.setAttribute('aria-selected', 'true');
    this.input.setAttribute('aria-activedescendant', el.id);
    el.scrollIntoView({ block: 'nearest' });
  }

  private onKey(ev: KeyboardEvent): void {
    const n = this.hits.length;
    if (ev.key === 'ArrowDown' && n > 0) this.active = (this.active + 1) % n;
    else if (ev.key === 'ArrowUp' && n > 0) this.active = (this.active - 1 + n) % n;
    else if (ev.key === 'Enter') {
      window.clearTimeout(this.timer);
      this.choose(this.active);
    } else return;
    ev.preventDefault();
    this.mark();
  }

  private choose(i: number): void {
    const hit = this.hits[i];
    if (hit === undefined) return;
    this.dialog.close();
    this.deps.open(hit.sessionId, hit.workerId, hit.uuid);
  }
}

/**
 * The line above the hits. A partial answer (the server's time limit cut the
 * search, so only the newest messages were ranked) says so, or an empty
 * list would read as "no such message"; so does an index that lags behind
 * the stored messages (behind > 0: during a flood the indexer catches up
 * later).
 */
export function searchStatus(hits: number, partial: boolean, behind = 0): string {
  const lag = behind > 0
    ? `Indexing: the newest ${behind.toLocaleString('en-US')} ${behind === 1 ? 'message is' : 'messages are'} not searchable yet.`
    : '';
  const found = !partial
    ? (hits === 0 ? 'Nothing found.' : '')
    : hits === 0
      ? 'Nothing found in the most recent messages: the search took too long to look at the rest.'
      : 'Showing the most recent matches: the search took too long to look at the rest.';
  return [found, lag].filter((s) => s !== '').join(' ');
}

/**
 * Appends the server's snippet: escaped text with <mark> around the matched
 * words. Only text and <mark> are kept, so even a wrong snippet cannot
 * inject markup.
 */
export function appendSnippet(el: HTMLElement, snippet: string): void {
  const t = document.createElement('template');
  t.innerHTML = snippet; // parsed inert: a template's content runs nothing
  for (const n of Array.from(t.content.childNodes)) {
    if (n.nodeName === 'MARK') el.append(h('mark', null, n.textContent ?? ''));
    else el.append(n.textContent ?? '');
  }
}

/**
 * Scrolls to the message uuid inside root once it is shown (the chat may
 * still be reading its history) and highlights it. Gives up after limitMs.
 */
export function revealMessage(root: HTMLElement, uuid: string, limitMs = 20000): void {
  const sel = `[data-uuid="${CSS.escape(uuid)}"]`;
  const find = (): HTMLElement | null => {
    // A chunk of the chat far from view is parked (park.ts): put the one with the message back.
    for (const chunk of parkedChunks()) {
      const el = chunk.querySelector<HTMLElement>(sel);
      if (el !== null) unpark(el, root);
    }
    for (const el of root.querySelectorAll<HTMLElement>(sel)) {
      if (el.offsetParent !== null || el.getClientRects().length > 0) {
        unpark(el, root); // kept in the document until shown
        return el;
      }
    }
    return null;
  };
  const show = (el: HTMLElement): void => {
    unpark(el, root); // parked meanwhile, or about to be: back, and kept until in view
    el.scrollIntoView({ block: 'center' });
    el.classList.remove('search-target');
    void el.offsetWidth; // restart the animation
    el.classList.add('search-target');
    el.addEventListener('animationend', () => el.classList.remove('search-target'), { once: true });
    keepInView(root, el);
  };
  const now = find();
  if (now !== null) {
    show(now);
    return;
  }
  const obs = new MutationObserver(() => {
    const el = find();
    if (el === null) return;
    obs.disconnect();
    window.clearTimeout(stop);
    // The chat scrolls to its end after the history is built; go after it.
    requestAnimationFrame(() => requestAnimationFrame(() => show(el)));
  });
  const stop = window.setTimeout(() => obs.disconnect(), limitMs);
  obs.observe(root, { childList: true, subtree: true, attributes: true, attributeFilter: ['hidden'] });
}

/**
 * Keeps el in view for a few seconds: the chat may still render history
 * after it and follow the newest message down. A wheel, touch or key of
 * the person's own ends it.
 */
function keepInView(root: HTMLElement, el: HTMLElement, forMs = 5000): void {
  const until = performance.now() + forMs;
  let done = false;
  const stop = (): void => { done = true; };
  for (const type of ['wheel', 'touchstart', 'keydown']) root.addEventListener(type, stop, { once: true, passive: true });
  const tick = (): void => {
    if (done || performance.now() > until || !el.isConnected) return;
    const r = el.getBoundingClientRect();
    if (r.top < 0 || r.bottom > innerHeight) el.scrollIntoView({ block: 'center' });
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}
