// The attachments of a sent (stored) user message: its "attachments"
// references ({id, name, mediaType, size, url}), shown under the text as
// thumbnails (images, which open full size in a dialog; Escape closes it)
// or file chips that open the file. The bytes come from the server by URL,
// never inside the message.
import { h } from '../../dom';
import { formatSize } from './attach-tray';
import type { CliMessage } from './protocol';

interface Ref {
  id: string;
  name: string;
  mediaType: string;
  size: number;
  url: string;
}

function refsOf(m: CliMessage): Ref[] {
  const list = m.attachments;
  if (!Array.isArray(list)) return [];
  return list.filter((r): r is Ref => typeof r === 'object' && r !== null &&
    typeof (r as Ref).url === 'string' && (r as Ref).url.startsWith('/api/') && typeof (r as Ref).name === 'string');
}

const imageTypes = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/**
 * Adds the message's attachments to its user bubble (made when the
 * message has no text). Returns the bubble, or el when there are none.
 */
export function withAttachments(el: HTMLElement | null, m: CliMessage): HTMLElement | null {
  const refs = refsOf(m);
  if (refs.length === 0) return el;
  const bubble = el ?? h('div', { class: 'chat-msg chat-user' });
  bubble.append(h('ul', { class: 'chat-attachments', 'aria-label': 'Attachments' }, ...refs.map(item)));
  return bubble;
}

function item(r: Ref): HTMLElement {
  if (imageTypes.has(r.mediaType)) {
    const img = h('img', { class: 'chat-attachment-img', src: r.url, alt: r.name, loading: 'lazy' });
    const btn = h('button', { class: 'chat-attachment-open', type: 'button', title: `${r.name} (${formatSize(r.size)}): open full size`,
      'aria-label': `Open ${r.name} full size`, onClick: () => openLightbox(r) }, img);
    return h('li', { class: 'chat-attachment' }, btn);
  }
  const label = r.mediaType === 'application/pdf' ? 'PDF' : 'TXT';
  return h('li', { class: 'chat-attachment' },
    h('a', { class: 'chat-attachment-file', href: r.url, target: '_blank', rel: 'noopener noreferrer' },
      h('span', { class: 'chat-attach-icon', 'aria-hidden': 'true' }, label),
      h('span', { class: 'chat-attach-name' }, r.name),
      h('span', { class: 'chat-attach-size' }, formatSize(r.size))));
}

/** Shows an image full size in a modal dialog; Escape, the button or a click outside the image closes it. */
function openLightbox(r: Ref): void {
  const close = h('button', { class: 'btn chat-lightbox-close', type: 'button', 'aria-label': 'Close' }, 'Close');
  const dlg = h('dialog', { class: 'chat-lightbox', 'aria-label': r.name },
    h('img', { class: 'chat-lightbox-img', src: r.url, alt: r.name }),
    h('div', { class: 'chat-lightbox-bar' }, h('span', { class: 'chat-lightbox-name' }, r.name), close));
  close.addEventListener('click', () => dlg.close());
  dlg.addEventListener('click', (ev) => { if (ev.target === dlg) dlg.close(); });
  dlg.addEventListener('close', () => dlg.remove());
  document.body.append(dlg);
  dlg.showModal();
  close.focus();
}
