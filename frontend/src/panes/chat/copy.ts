// Copy buttons of the chat: on every text message (its markdown source), on
// code blocks (the code) and on tool output (all of it, also the part cut
// from the preview). Buttons are cloned from one template and their text is
// kept in a WeakMap, and one delegated listener on the pane serves them
// all: a 5,000-message history adds little to its first render.
import { wireCopy } from '../../copy';
import { h } from '../../dom';

const sources = new WeakMap<HTMLElement, string>();
const template = h('button', { class: 'copy-btn', type: 'button' }, 'Copy');

function button(kind: string, label: string): HTMLButtonElement {
  const b = template.cloneNode(true) as HTMLButtonElement;
  b.dataset.copy = kind;
  b.setAttribute('aria-label', label);
  b.title = label;
  return b;
}

/** Adds a "copy message" button to el, copying text. */
export function addMessageCopy(el: HTMLElement, text: string): void {
  const b = button('message', 'Copy message');
  sources.set(b, text);
  el.append(h('div', { class: 'msg-tools' }, b));
}

/** A "copy output" button for a tool's full output. */
export function toolCopyButton(text: string): HTMLButtonElement {
  const b = button('tool', 'Copy output');
  sources.set(b, text);
  return b;
}

/** Puts a copy button on each code block of rendered markdown in el. */
export function addCodeCopies(el: HTMLElement): void {
  for (const pre of el.querySelectorAll('pre')) {
    const wrap = h('div', { class: 'code-wrap' });
    pre.replaceWith(wrap);
    wrap.append(pre, button('code', 'Copy code'));
  }
}

/** Serves every copy button inside root. */
export function wireChatCopy(root: HTMLElement): void {
  wireCopy(root, (btn) => {
    if (btn.dataset.copy === 'code') return btn.parentElement?.querySelector('pre')?.textContent ?? null;
    return sources.get(btn) ?? null;
  });
}
