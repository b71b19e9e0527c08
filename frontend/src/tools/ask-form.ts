// The form of an ask_user call: the question, its choices (radio buttons, or
// checkboxes when several may be picked), a text answer, a file, Send and
// Decline. The answer goes back to the agent as text (and the file as an
// image or its text).
import { h } from '../dom';
import type { AskSpec, Pending } from './asks';
import { image, text, type ContentItem } from './client.js';

/** The largest file an answer carries (the socket takes 8 MiB of base64). */
const maxFile = 4 << 20;

let nextId = 0;

export class AskForm {
  readonly el: HTMLElement;
  private readonly inputs: HTMLInputElement[];
  private readonly textEl: HTMLTextAreaElement | null;
  private readonly fileEl: HTMLInputElement | null;
  private readonly error = h('p', { class: 'form-error perm-error', role: 'alert' });
  private readonly sendBtn = h('button', { class: 'btn btn-primary', type: 'submit' }, 'Send');

  constructor(private readonly p: Pending, private readonly spec: AskSpec) {
    const name = `tool-ask-${++nextId}`;
    const type = spec.multiple ? 'checkbox' : 'radio';
    this.inputs = spec.choices.map((c) => h('input', { type, name, value: c }));
    this.textEl = spec.allowText ? h('textarea', { class: 'tool-ask-text', rows: 2, 'aria-label': 'Your answer', placeholder: spec.choices.length > 0 ? 'Or write an answer…' : 'Your answer…' }) : null;
    this.fileEl = spec.file ? h('input', { type: 'file', class: 'tool-ask-file', 'aria-label': 'A file to send', accept: spec.accept || null }) : null;
    const decline = h('button', { class: 'btn', type: 'button' }, 'Decline');
    const form = h('form', { class: 'ask-form' },
      h('fieldset', { class: 'ask-q' },
        h('legend', null, h('span', { class: 'ask-question' }, spec.question)),
        ...spec.choices.map((c, i) => h('label', { class: 'ask-opt' }, this.inputs[i] ?? null, h('span', { class: 'ask-label' }, c))),
        this.textEl,
        this.fileEl !== null ? h('label', { class: 'tool-ask-filelabel' }, h('span', null, 'File: '), this.fileEl) : null),
      h('div', { class: 'perm-actions' }, this.sendBtn, decline),
      this.error);
    this.el = h('div', { class: 'chat-perm chat-ask tool-ask', role: 'group', 'aria-label': 'The agent asks you', 'data-call-id': p.callId, 'data-tool-use-id': p.toolUseId },
      h('div', { class: 'perm-head' }, 'The agent asks you ', h('span', { class: 'tool-provider' }, 'ask_user · agentdesk')),
      form);
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      void this.submit();
    });
    decline.addEventListener('click', () => p.done([text('The person declined to answer.')], true));
  }

  focus(): void {
    (this.inputs[0] ?? this.textEl ?? this.fileEl ?? this.sendBtn).focus();
  }

  private async submit(): Promise<void> {
    const picked = this.inputs.filter((i) => i.checked).map((i) => i.value);
    const typed = this.textEl?.value.trim() ?? '';
    const file = this.fileEl?.files?.[0] ?? null;
    if (picked.length === 0 && typed === '' && file === null) {
      this.error.textContent = 'Pick or write an answer, attach a file, or Decline.';
      this.focus();
      return;
    }
    const answer: Record<string, unknown> = {};
    if (picked.length > 0) answer[this.spec.multiple ? 'choices' : 'choice'] = this.spec.multiple ? picked : picked[0];
    if (typed !== '') answer.text = typed;
    const content: ContentItem[] = [];
    if (file !== null) {
      const item = await fileContent(file).catch((err: unknown) => err instanceof Error ? err.message : String(err));
      if (typeof item === 'string') {
        this.error.textContent = item;
        return;
      }
      answer.file = { name: file.name, type: file.type, size: file.size };
      content.push(...item);
    }
    this.p.done([text(JSON.stringify(answer)), ...content], false);
  }
}

/** A file as result content: an image, or the text of a text file. */
async function fileContent(f: File): Promise<ContentItem[]> {
  if (f.size > maxFile) throw new Error(`The file is larger than ${maxFile >> 20} MiB; choose a smaller one.`);
  if (/^image\/(png|jpeg|gif|webp)$/.test(f.type)) {
    const b = new Uint8Array(await f.arrayBuffer());
    let bin = '';
    for (let i = 0; i < b.length; i += 0x8000) bin += String.fromCharCode(...b.subarray(i, i + 0x8000));
    return [image(btoa(bin), f.type)];
  }
  const body = await f.text();
  if (body.includes('\u0000')) throw new Error('Only text files and images (PNG, JPEG, GIF, WebP) can be sent.');
  return [text(`--- ${f.name} ---\n${body}`)];
}
