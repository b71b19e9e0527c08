// Copy buttons of the chat: on every text message (its markdown source), on
// code blocks (the code) and on tool output (all of it, also the part cut
// from the preview). Rendering only records what each element copies (a
// WeakMap entry); the buttons are added, at idle moments, to the chunks of
// the transcript that come near the view (an IntersectionObserver), so a
// 5,000-message history costs no extra DOM at its first render. One delegated listener
// on the pane serves every button.
import { wireCopy } from '../../copy';
import { h } from '../../dom';
import { revealToolsOnTap } from './tap-tools';

const sources = new WeakMap<HTMLElement, string>();
const decorated = new WeakSet<HTMLElement>();
const template = h('button', { class: 'copy-btn', type: 'button' }, 'Copy');
/** What gets a button: messages with a source, and tool output. */
const targets = '.chat-text, .chat-user, .tool-output-wrap';

/** Records the text el's copy button copies (a message's source, a tool's full output). */
export function setCopySource(el: HTMLElement, text: string): void {
  sources.set(el, text);
}

function button(kind: string, label: string): HTMLButtonElement {
  const b = template.cloneNode(true) as HTMLButtonElement;
  b.dataset.copy = kind;
  b.setAttribute('aria-label', label);
  b.title = label;
  return b;
}

/** Adds the buttons to every element under root that has a source and none yet; true when it added some. */
export function decorate(root: Element): boolean {
  let added = false;
  for (const el of root.querySelectorAll<HTMLElement>(targets)) {
    if (decorated.has(el) || !sources.has(el)) continue;
    decorated.add(el);
    added = true;
    if (el.classList.contains('tool-output-wrap')) {
      el.append(button('tool', 'Copy output'));
      continue;
    }
    for (const pre of el.querySelectorAll('.md pre, pre')) {
      if (pre.parentElement?.classList.contains('code-wrap')) continue;
      const wrap = h('div', { class: 'code-wrap' });
      pre.replaceWith(wrap);
      wrap.append(pre, button('code', 'Copy code'));
    }
    el.append(h('div', { class: 'msg-tools' }, button('message', 'Copy message')));
  }
  return added;
}

/**
 * Adds copy buttons to the transcript chunks near the view of scroller, and
 * serves the clicks of every copy button inside pane.
 */
export class CopyButtons {
  private readonly near = new Set<Element>();
  private readonly io: IntersectionObserver;
  private idle = 0;

  constructor(private readonly scroller: HTMLElement, pane: HTMLElement) {
    this.io = new IntersectionObserver((entries) => {
      for (const e of entries) {
        if (e.isIntersecting) this.near.add(e.target);
        else this.near.delete(e.target);
      }
      this.refresh();
    }, { root: scroller, rootMargin: '400px 0px' });
    revealToolsOnTap(scroller);
    wireCopy(pane, (btn) => {
      if (btn.dataset.copy === 'code') return btn.parentElement?.querySelector('pre')?.textContent ?? null;
      const owner = btn.dataset.copy === 'tool' ? btn.parentElement : btn.parentElement?.parentElement;
      return owner === null || owner === undefined ? null : sources.get(owner) ?? null;
    });
  }

  /**
   * Adds the buttons to the chunks in the scroller's view now, from the
   * newest up (the view is at the bottom but for a reader scrolled up).
   * True when it added some.
   */
  decorateInView(): boolean {
    const view = this.scroller.getBoundingClientRect();
    if (view.height === 0) return false; // hidden: no layout to keep
    let added = false;
    const chunks = this.scroller.querySelectorAll<HTMLElement>('.chat-chunk');
    for (let i = chunks.length - 1; i >= 0; i--) {
      const r = chunks[i]!.getBoundingClientRect();
      if (r.bottom < view.top) break;
      if (r.top <= view.bottom) added = decorate(chunks[i]!) || added;
    }
    return added;
  }

  /** A new chunk of the transcript: decorate it when it comes near the view. */
  observe(chunk: HTMLElement): void {
    this.io.observe(chunk);
  }

  /**
   * Messages were added or came near the view: their buttons are added at
   * the next idle moment, after the messages themselves are on screen.
   */
  refresh(): void {
    if (this.idle !== 0) return;
    const run = (): void => {
      this.idle = 0;
      for (const c of this.near) decorate(c);
    };
    this.idle = typeof requestIdleCallback === 'function'
      ? requestIdleCallback(run, { timeout: 500 })
      : window.setTimeout(run, 50);
  }

  /** Chunks were dropped (the history was reset). */
  clear(): void {
    this.io.disconnect();
    this.near.clear();
  }

  dispose(): void {
    this.clear();
    if (this.idle !== 0) {
      if (typeof cancelIdleCallback === 'function') cancelIdleCallback(this.idle);
      else window.clearTimeout(this.idle);
    }
  }
}
