// The files waiting to go with the next message: added by paste, drop or
// the Attach button, checked against the server's rules before anything
// is sent (docs/api-extensions.md, "Attachments"), read as base64 at once
// so that sending stays synchronous, and shown as chips (thumbnail, name,
// size, remove).
import { h } from '../../dom';
import './attach.css';

/** An attachment as the user-message frame carries it. */
export interface OutAttachment {
  name: string;
  mediaType: string;
  data: string; // base64
}

interface Pending extends OutAttachment {
  id: number;
  size: number;
}

const mib = 1 << 20;
const maxFile = 10 * mib;
const maxTotal = 30 * mib;
const maxText = mib;
const maxCount = 20;
const imageTypes = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
const textExts = new Set(('txt md markdown rst log csv tsv json jsonl yaml yml toml ini cfg conf env xml html htm css scss ' +
  'js mjs cjs ts tsx jsx go mod sum py rb rs c h cc cpp hpp java kt swift cs php pl lua sh bash zsh fish sql graphql ' +
  'proto diff patch tex vue svelte dockerfile gitignore svg').split(' '));

/** Bytes for people: "1.5 MiB", "12 KiB", "80 B". */
export function formatSize(n: number): string {
  if (n >= mib) return `${(n / mib).toFixed(1).replace(/\.0$/, '')} MiB`;
  if (n >= 1024) return `${Math.round(n / 1024)} KiB`;
  return `${n} B`;
}

function isText(f: File): boolean {
  if (f.type.startsWith('text/')) return true;
  const ext = f.name.includes('.') ? f.name.split('.').pop()!.toLowerCase() : '';
  return textExts.has(ext);
}

/** The media type to send, or an error sentence. */
function check(f: File): { type: string } | { error: string } {
  if (f.size === 0) return { error: `${f.name} is empty.` };
  if (f.size > maxFile) return { error: `${f.name} is ${formatSize(f.size)}: files may be at most 10 MiB.` };
  if (imageTypes.has(f.type) || f.type === 'application/pdf') return { type: f.type };
  if (isText(f)) {
    if (f.size > maxText) return { error: `${f.name} is ${formatSize(f.size)}: text files may be at most 1 MiB.` };
    return { type: 'text/plain' };
  }
  return { error: `${f.name} cannot be attached: attach PNG, JPEG, GIF or WebP images, PDFs, or text files.` };
}

function readBase64(f: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => {
      const url = String(r.result);
      resolve(url.slice(url.indexOf(',') + 1));
    };
    r.onerror = () => reject(r.error ?? new Error('read failed'));
    r.readAsDataURL(f);
  });
}

let nextId = 0;

export class AttachTray {
  readonly el: HTMLElement;
  readonly button: HTMLButtonElement;
  private readonly list: HTMLElement;
  private readonly error: HTMLElement;
  private readonly picker: HTMLInputElement;
  private items: Pending[] = [];
  private reading = 0;

  constructor(private readonly changed: () => void) {
    this.picker = h('input', { type: 'file', multiple: true, hidden: true, class: 'chat-attach-picker' });
    this.button = h('button', { class: 'btn chat-attach-btn', type: 'button', title: 'Attach files (or paste, or drop them here)', 'aria-label': 'Attach files' });
    // A paperclip: emoji fonts are missing on many Linux desktops. Static markup, no user data.
    this.button.innerHTML = '<svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"><path d="M21 11.5l-8.6 8.6a5.5 5.5 0 0 1-7.8-7.8l8.6-8.6a3.7 3.7 0 0 1 5.2 5.2l-8.6 8.6a1.8 1.8 0 0 1-2.6-2.6l7.9-7.9"/></svg>';
    this.list = h('ul', { class: 'chat-attachments-pending', 'aria-label': 'Attachments' });
    this.error = h('div', { class: 'chat-attach-error', role: 'alert', hidden: true });
    this.el = h('div', { class: 'chat-attach-tray' }, this.list, this.error, this.picker);
    this.button.addEventListener('click', () => this.picker.click());
    this.picker.addEventListener('change', () => {
      void this.add([...(this.picker.files ?? [])]);
      this.picker.value = '';
    });
    this.render();
  }

  /** Paste of files into input and drops of files anywhere on area add them. */
  listen(input: HTMLElement, area: HTMLElement): void {
    input.addEventListener('paste', (ev) => {
      const files = [...(ev.clipboardData?.files ?? [])];
      if (files.length === 0) return;
      ev.preventDefault();
      void this.add(files);
    });
    area.addEventListener('dragover', (ev) => {
      if (!ev.dataTransfer?.types.includes('Files')) return;
      ev.preventDefault();
      area.classList.add('chat-drop-target');
    });
    area.addEventListener('dragleave', (ev) => {
      if (ev.target === area || !area.contains(ev.relatedTarget as Node | null)) area.classList.remove('chat-drop-target');
    });
    area.addEventListener('drop', (ev) => {
      area.classList.remove('chat-drop-target');
      const files = [...(ev.dataTransfer?.files ?? [])];
      if (files.length === 0) return;
      ev.preventDefault();
      void this.add(files);
    });
  }

  /** Checks and reads files; the first problem is shown and that file left out. */
  async add(files: File[]): Promise<void> {
    const errors: string[] = [];
    this.reading++;
    this.render();
    try {
      for (const f of files) {
        const c = check(f);
        if ('error' in c) { errors.push(c.error); continue; }
        if (this.items.length >= maxCount) { errors.push(`At most ${maxCount} files can go with one message.`); break; }
        if (this.total() + f.size > maxTotal) { errors.push(`${f.name} would take this message over 30 MiB of files.`); continue; }
        let data: string;
        try {
          data = await readBase64(f);
        } catch {
          errors.push(`${f.name} could not be read.`);
          continue;
        }
        if (c.type === 'text/plain' && !isUtf8(data)) { errors.push(`${f.name} is not UTF-8 text.`); continue; }
        this.items.push({ id: ++nextId, name: f.name, mediaType: c.type, data, size: f.size });
      }
    } finally {
      this.reading--;
    }
    this.showError(errors.join(' '));
    this.render();
  }

  /** Whether anything is attached, or still being read (sending waits). */
  get count(): number { return this.items.length; }
  get busy(): boolean { return this.reading > 0; }

  /** The attachments to send. */
  take(): OutAttachment[] {
    return this.items.map(({ name, mediaType, data }) => ({ name, mediaType, data }));
  }

  clear(): void {
    this.items = [];
    this.showError('');
    this.render();
  }

  showError(msg: string): void {
    this.error.textContent = msg;
    this.error.hidden = msg === '';
  }

  private total(): number {
    return this.items.reduce((n, i) => n + i.size, 0);
  }

  private remove(id: number): void {
    this.items = this.items.filter((i) => i.id !== id);
    this.render();
    this.button.focus();
  }

  private render(): void {
    this.list.replaceChildren(...this.items.map((i) => this.chip(i)));
    this.el.hidden = this.items.length === 0 && this.error.hidden;
    this.changed();
  }

  private chip(i: Pending): HTMLElement {
    const thumb = imageTypes.has(i.mediaType)
      ? h('img', { class: 'chat-attach-thumb', src: `data:${i.mediaType};base64,${i.data}`, alt: '' })
      : h('span', { class: 'chat-attach-thumb chat-attach-icon', 'aria-hidden': 'true' }, i.mediaType === 'application/pdf' ? 'PDF' : 'TXT');
    return h('li', { class: 'chat-attach-chip', 'data-name': i.name },
      thumb,
      h('span', { class: 'chat-attach-meta' },
        h('span', { class: 'chat-attach-name', title: i.name }, i.name),
        h('span', { class: 'chat-attach-size' }, formatSize(i.size))),
      h('button', { class: 'icon-btn chat-attach-remove', type: 'button', 'aria-label': `Remove ${i.name}`, title: 'Remove', onClick: () => this.remove(i.id) }, '×'));
  }
}

/** Whether base64 data decodes to valid UTF-8 without NUL bytes (the server's rule). */
function isUtf8(b64: string): boolean {
  try {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return !text.includes('\0');
  } catch {
    return false;
  }
}
