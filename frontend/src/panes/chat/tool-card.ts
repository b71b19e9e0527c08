// A tool call as a card: a readable title, the input on demand, and the result
// once the later user line's tool_result arrives (long output cut to a few dozen
// lines with "show all"). Sub-agent messages (parent_tool_use_id) nest inside.
import { h } from '../../dom';
import { setCopySource } from './copy';
import { prettyJson } from './format';
import { isObject, type Block } from './protocol';
import { toolTitle } from './tool-title';

/** Output lines shown before "show all". */
export const previewLines = 40;
/** Characters shown before "show all", for output with few but huge lines. */
const previewChars = 6000;

export type ToolState = 'pending' | 'ok' | 'error' | 'denied' | 'none';

const stateLabel: Record<ToolState, string> = {
  pending: 'running…',
  ok: '',
  error: 'error',
  denied: 'denied',
  none: 'no result',
};

export class ToolCard {
  readonly el: HTMLElement;
  private readonly stateEl: HTMLElement;
  private resultEl: HTMLDetailsElement | null = null;
  private childBox: HTMLElement | null = null;
  private state: ToolState = 'pending';

  constructor(readonly id: string, readonly name: string, readonly input: unknown) {
    const t = toolTitle(name, input);
    this.stateEl = h('span', { class: 'tool-state' });
    const head = h('div', { class: 'tool-head' },
      h('span', { class: 'tool-name' }, name || 'tool'),
      t.text !== '' ? h(t.code ? 'code' : 'span', { class: 'tool-title' }, t.text) : null,
      this.stateEl);
    this.el = h('div', { class: 'chat-msg chat-tool', 'data-tool': name, 'data-tool-id': id }, head);
    if (t.detail !== '') this.el.append(h('div', { class: 'tool-detail' }, t.detail));
    if (isObject(input) && Object.keys(input).length > 0) {
      this.el.append(h('details', { class: 'tool-input' },
        h('summary', null, 'Input'), h('pre', { class: 'tool-pre' }, prettyJson(input))));
    }
    this.setState('pending');
  }

  /** Where messages of a sub-agent run by this call go. */
  get children(): HTMLElement {
    if (this.childBox === null) {
      this.childBox = h('div', { class: 'tool-children' });
      if (this.resultEl !== null) this.resultEl.before(this.childBox);
      else this.el.append(this.childBox);
    }
    return this.childBox;
  }

  get hasResult(): boolean {
    return this.resultEl !== null;
  }

  /** Shows the tool_result block; denied says the call was refused by a person or a rule. */
  setResult(block: Block, denied: boolean): void {
    const text = resultText(block.content);
    const state: ToolState = denied ? 'denied' : block.is_error === true ? 'error' : 'ok';
    this.setState(state);
    const summary = state === 'ok' ? 'Result' : state === 'denied' ? 'Denied' : 'Error';
    const body = outputBlock(text === '' ? '(no output)' : text);
    if (text !== '') setCopySource(body, text);
    const details = h('details', { class: 'tool-result', open: true }, h('summary', null, summary), body);
    this.resultEl?.remove();
    this.resultEl = details;
    this.el.append(details);
  }

  /** Marks the call denied (result.permission_denials), keeping any result shown. */
  markDenied(): void {
    this.setState('denied');
  }

  /** The turn ended: a call still waiting will get no result. */
  settle(): void {
    if (this.state === 'pending') this.setState('none');
  }

  private setState(s: ToolState): void {
    this.state = s;
    this.el.dataset.state = s;
    this.stateEl.textContent = stateLabel[s];
  }
}

/** The text of a tool_result content: a string, or text blocks (images become "[image]"). */
export function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return content === undefined || content === null ? '' : prettyJson(content);
  return content
    .map((b: unknown) => {
      if (!isObject(b)) return '';
      if (b.type === 'text' && typeof b.text === 'string') return b.text;
      if (b.type === 'image') return '[image]';
      return prettyJson(b);
    })
    .join('\n');
}

/** A <pre> with the first previewLines lines and a "show all" button when there is more. */
export function outputBlock(text: string): HTMLElement {
  const pre = h('pre', { class: 'tool-pre tool-output' });
  const lines = text.split('\n');
  const cut = lines.length > previewLines || text.length > previewChars;
  if (!cut) {
    pre.textContent = text;
    return h('div', { class: 'tool-output-wrap' }, pre);
  }
  pre.textContent = lines.slice(0, previewLines).join('\n').slice(0, previewChars);
  const more = h('button', { class: 'btn btn-small tool-more', type: 'button' },
    `Show all (${lines.length} lines)`);
  more.addEventListener('click', () => {
    pre.textContent = text;
    more.remove();
  });
  return h('div', { class: 'tool-output-wrap' }, pre, more);
}
