// A tool call as a card: a readable title, the input on demand, and the result
// once the later user line's tool_result arrives (long output cut to a few dozen
// lines with "show all"). Sub-agent messages (parent_tool_use_id) nest inside.
import { h } from '../../dom';
import { scrollBox } from '../../scroll-box';
import { setCopySource } from './copy';
import { prettyJson } from './format';
import { isObject, type Block } from './protocol';
import { toolTitle } from './tool-title';
import { imageUrl, resultImages } from './tools/images';
import './tools/index';
import { toolView, type ToolView } from './tools/registry';
import { providerChip, shortToolName } from '../../tools/providers';

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
  private readonly exitEl: HTMLElement;
  private resultEl: HTMLDetailsElement | null = null;
  private childBox: HTMLElement | null = null;
  private state: ToolState = 'pending';
  private readonly view: ToolView | undefined;
  private readonly body: HTMLElement | null;
  private sub: SubagentBox | null = null;

  constructor(readonly id: string, readonly name: string, readonly input: unknown) {
    this.view = toolView(name);
    const t = toolTitle(name, input);
    this.stateEl = h('span', { class: 'tool-state' });
    this.exitEl = h('span', { class: 'tool-exit', hidden: true });
    const head = h('div', { class: 'tool-head' },
      h('span', { class: 'tool-name' }, shortToolName(name) || 'tool'),
      providerChip(name),
      t.text !== '' ? h(t.code ? 'code' : 'span', { class: 'tool-title' }, t.text) : null,
      this.exitEl, this.stateEl);
    this.el = h('div', { class: 'chat-msg chat-tool', 'data-tool': name, 'data-tool-id': id }, head);
    if (t.detail !== '') this.el.append(h('div', { class: 'tool-detail' }, t.detail));
    this.body = this.view?.body?.(input) ?? null;
    if (this.body !== null) this.el.append(this.body);
    if (this.view?.rawInput !== false && isObject(input) && Object.keys(input).length > 0) {
      this.el.append(h('details', { class: 'tool-input' },
        h('summary', null, 'Input'), scrollBox(h('pre', { class: 'tool-pre' }, prettyJson(input)), 'Tool input')));
    }
    this.setState('pending');
  }

  /** Where messages of a sub-agent run by this call go. */
  get children(): HTMLElement {
    if (this.childBox === null) {
      this.sub = new SubagentBox();
      this.childBox = this.sub.children;
      if (this.resultEl !== null) this.resultEl.before(this.sub.el);
      else this.el.append(this.sub.el);
    }
    return this.childBox;
  }

  /** The sub-agent's latest activity (system/task_progress). */
  subagentProgress(text: string): void {
    void this.children;
    this.sub?.progress(text);
  }

  /** The sub-agent ended (system/task_notification): its messages fold away. */
  subagentDone(status: string): void {
    void this.children;
    this.sub?.done(status);
  }

  get hasResult(): boolean {
    return this.resultEl !== null;
  }

  /** Shows the tool_result block; denied says the call was refused by a person or a rule. */
  setResult(block: Block, denied: boolean, meta?: unknown): void {
    const text = resultText(block.content);
    const state: ToolState = denied ? 'denied' : block.is_error === true ? 'error' : 'ok';
    this.setState(state);
    const status = this.view?.status?.(meta) ?? null;
    this.exitEl.hidden = status === null;
    this.exitEl.textContent = status ?? '';
    const summary = state === 'ok' ? 'Result' : state === 'denied' ? 'Denied' : 'Error';
    if (state === 'ok' && this.body !== null) this.view?.update?.(this.body, this.input, meta);
    const custom = state === 'ok' ? this.view?.result?.(this.input, block, text, meta) ?? null : null;
    const images = resultImages(block.content);
    let body: HTMLElement | null = custom;
    if (body === null && (text !== '' || images === null)) {
      body = outputBlock(text === '' ? '(no output)' : text);
      if (text !== '') setCopySource(body, text);
    }
    const open = state !== 'ok' || this.view?.quietResult !== true;
    const details = h('details', { class: 'tool-result', open }, h('summary', null, summary), body, images);
    // A sub-agent run in the foreground is over once its call has a result.
    if (this.sub !== null && !isAsyncLaunch(meta)) this.sub.done(state === 'ok' ? 'completed' : state);
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

/** The sub-agent's messages, under a summary with its activity; open while it runs. */
class SubagentBox {
  readonly children = h('div', { class: 'tool-children' });
  private readonly summary = h('span', { class: 'sub-activity' }, 'running…');
  readonly el: HTMLDetailsElement = h('details', { class: 'tool-sub', open: true, 'data-state': 'running' },
    h('summary', null, h('span', { class: 'sub-label' }, 'Subagent'), this.summary), this.children);

  progress(text: string): void {
    if (this.el.dataset.state === 'running' && text !== '') this.summary.textContent = text;
  }

  done(status: string): void {
    if (this.el.dataset.state !== 'running') return;
    this.el.dataset.state = status;
    const n = this.children.childElementCount;
    this.summary.textContent = `${status === 'completed' ? 'done' : status} · ${n} message${n === 1 ? '' : 's'}`;
    this.el.open = false;
  }
}

/** True for the result of a Task the CLI started in the background ("async_launched"). */
function isAsyncLaunch(meta: unknown): boolean {
  return isObject(meta) && (meta.isAsync === true || meta.status === 'async_launched');
}

/** The text of a tool_result content: a string, or text blocks (images become "[image]"). */
export function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return content === undefined || content === null ? '' : prettyJson(content);
  return content
    .map((b: unknown) => {
      if (!isObject(b)) return '';
      if (b.type === 'text' && typeof b.text === 'string') return b.text;
      if (b.type === 'image') return imageUrl(b) !== null ? null : '[image]'; // shown as a picture
      return prettyJson(b);
    })
    .filter((t) => t !== null)
    .join('\n');
}

/** A <pre> with the first previewLines lines and a "show all" button when there is more. */
export function outputBlock(text: string): HTMLElement {
  const pre = scrollBox(h('pre', { class: 'tool-pre tool-output' }), 'Tool output');
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
