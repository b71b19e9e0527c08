// Copy to the clipboard, for the copy buttons of messages, code blocks and
// tool output. navigator.clipboard needs a secure context (https or
// loopback); elsewhere a hidden textarea and execCommand do it.
import { h } from './dom';

/** Copies text; resolves to whether it worked. */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard !== undefined && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // fall through to the old way (e.g. the page lost focus)
  }
  const area = h('textarea', { 'aria-hidden': 'true', readonly: true, style: 'position:fixed;top:0;left:-9999px;opacity:0' });
  area.value = text;
  document.body.append(area);
  area.select();
  let ok = false;
  try {
    ok = document.execCommand('copy');
  } catch {
    ok = false;
  }
  area.remove();
  return ok;
}

/** A "Copy" button; what it copies is found by the delegated handler (see wireCopy). */
export function copyButton(label: string, what: string): HTMLButtonElement {
  return h('button', { class: 'copy-btn', type: 'button', 'data-copy': what, 'aria-label': label, title: label }, 'Copy');
}

/**
 * Handles clicks on every .copy-btn inside root: source(button) returns the
 * text to copy. The button says "Copied" (or "Copy failed") for a moment.
 */
export function wireCopy(root: HTMLElement, source: (btn: HTMLElement) => string | null): void {
  root.addEventListener('click', (ev) => {
    const btn = (ev.target as Element | null)?.closest<HTMLElement>('.copy-btn');
    if (btn === null || btn === undefined || !root.contains(btn)) return;
    const text = source(btn);
    if (text === null) return;
    void copyText(text).then((ok) => {
      btn.textContent = ok ? 'Copied' : 'Copy failed';
      btn.dataset.copied = String(ok);
      window.setTimeout(() => {
        btn.textContent = 'Copy';
        delete btn.dataset.copied;
      }, 1500);
    });
  });
}
