// The files of a queued message (docs/api-extensions.md, "Queue"): small
// chips under its text in the queue panel, an image's thumbnail (served by
// the item's url while it waits, never inside the queue frame) or a file
// label, with the name. A click on an image opens it full size in a new
// tab; the files cannot be changed while queued (remove the item instead).
import { h } from '../../dom';
import { formatSize } from './attach-tray';
import './queue-files.css';

export interface QueuedFile {
  id: string;
  name: string;
  mediaType: string;
  size: number;
  url?: string;
}

const imageTypes = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** The chips of an item's files; null when it has none. */
export function queuedFiles(files: QueuedFile[] | undefined): HTMLElement | null {
  if (files === undefined || files.length === 0) return null;
  return h('ul', { class: 'chat-queue-files', 'aria-label': 'Attached files' }, ...files.map(chip));
}

function chip(f: QueuedFile): HTMLElement {
  const url = f.url !== undefined && f.url.startsWith('/api/') ? f.url : undefined;
  const thumb = imageTypes.has(f.mediaType) && url !== undefined
    ? h('img', { class: 'chat-queue-thumb', src: url, alt: '', loading: 'lazy' })
    : h('span', { class: 'chat-queue-thumb chat-queue-thumb-label', 'aria-hidden': 'true' }, f.mediaType === 'application/pdf' ? 'PDF' : 'TXT');
  const title = `${f.name} (${formatSize(f.size)})`;
  const body = [thumb, h('span', { class: 'chat-queue-file-name' }, f.name)];
  const inner = url !== undefined
    ? h('a', { class: 'chat-queue-file-link', href: url, target: '_blank', rel: 'noopener noreferrer', title, 'aria-label': title }, ...body)
    : h('span', { class: 'chat-queue-file-link', title }, ...body);
  return h('li', { class: 'chat-queue-file', 'data-name': f.name }, inner);
}
