// An inline request to use a tool: what and why, the input, Allow / Deny with
// an optional reason. Keyboard: Allow has focus; A allows, D denies (outside
// the reason field, where Enter denies).
import { h } from '../../dom';
import { scrollBox } from '../../scroll-box';
import { prettyJson } from './format';
import { isObject, str, type PermissionRequest } from './protocol';
import { suggestionButtons } from './suggestions';
import { toolTitle } from './tool-title';

export interface Answer {
  behavior: 'allow' | 'deny';
  message?: string;
  updatedInput?: unknown;
  /** Permission updates that go with an allow ("Always allow", a plan's mode). */
  updatedPermissions?: unknown[];
}

/** What the dock needs of a card (a tool permission or a question). */
export interface RequestCard {
  el: HTMLElement;
  focus(): void;
  setBusy(busy: boolean): void;
  setError(message: string): void;
}

export class PermissionCard implements RequestCard {
  readonly el: HTMLElement;
  private readonly allowBtn: HTMLButtonElement;
  private readonly denyBtn: HTMLButtonElement;
  private readonly reason: HTMLInputElement;
  private readonly error: HTMLElement;
  private readonly always: HTMLButtonElement[];

  /** agent names who asks (the chat's agent). */
  constructor(req: PermissionRequest, private readonly answer: (a: Answer) => void, agent = 'Claude') {
    this.always = suggestionButtons(req.permissionSuggestions, (u) => this.answer({ behavior: 'allow', updatedPermissions: u }));
    this.allowBtn = h('button', { class: 'btn btn-primary perm-allow', type: 'button', 'aria-keyshortcuts': 'A' }, 'Allow');
    this.denyBtn = h('button', { class: 'btn perm-deny', type: 'button', 'aria-keyshortcuts': 'D' }, 'Deny');
    this.reason = h('input', { class: 'perm-reason', type: 'text', placeholder: `Reason for denying (optional, sent to ${agent})`, 'aria-label': 'Reason for denying' });
    this.error = h('p', { class: 'form-error perm-error', role: 'alert' });
    this.el = h('div', { class: 'chat-perm', role: 'group', 'aria-label': `Permission request: ${req.toolName}`, 'data-request-id': req.requestId },
      h('div', { class: 'perm-head' }, `${agent} wants to use `, h('strong', null, req.toolName || 'a tool')),
      ...describe(req),
      h('div', { class: 'perm-actions' }, this.allowBtn, this.denyBtn, this.reason),
      h('div', { class: 'perm-actions perm-suggestions' }, ...this.always),
      h('div', { class: 'perm-keys muted' }, 'A: allow · D: deny'),
      this.error);
    this.allowBtn.addEventListener('click', () => this.answer({ behavior: 'allow' }));
    this.denyBtn.addEventListener('click', () => this.deny());
    this.el.addEventListener('keydown', (ev) => this.onKey(ev));
  }

  focus(): void {
    this.allowBtn.focus();
  }

  setBusy(busy: boolean): void {
    this.allowBtn.disabled = busy;
    this.denyBtn.disabled = busy;
    for (const b of this.always) b.disabled = busy;
    this.reason.disabled = busy;
    this.el.dataset.busy = String(busy);
  }

  setError(message: string): void {
    this.error.textContent = message;
  }

  private deny(): void {
    const message = this.reason.value.trim();
    this.answer(message !== '' ? { behavior: 'deny', message } : { behavior: 'deny' });
  }

  private onKey(ev: KeyboardEvent): void {
    if (ev.altKey || ev.ctrlKey || ev.metaKey || this.allowBtn.disabled) return;
    if (ev.target === this.reason) {
      if (ev.key === 'Enter') {
        ev.preventDefault();
        this.deny();
      }
      return;
    }
    const k = ev.key.toLowerCase();
    if (k === 'a') {
      ev.preventDefault();
      this.answer({ behavior: 'allow' });
    } else if (k === 'd') {
      ev.preventDefault();
      this.deny();
    }
  }
}

/** The readable part: description, the main input (command, path...), the full input. */
function describe(req: PermissionRequest): HTMLElement[] {
  const out: HTMLElement[] = [];
  const t = toolTitle(req.toolName, req.input);
  const desc = req.description ?? '';
  if (desc !== '' && desc !== t.text) out.push(h('div', { class: 'perm-desc' }, desc));
  const plan = req.toolName === 'ExitPlanMode' ? str(req.input, 'plan') : '';
  if (plan !== '') {
    out.push(scrollBox(h('pre', { class: 'tool-pre perm-main perm-plan' }, plan), 'Plan'));
    return out; // the plan is the whole input
  }
  if (t.text !== '') {
    const main = req.toolName === 'Bash' ? `$ ${str(req.input, 'command')}` : t.text;
    out.push(scrollBox(h('pre', { class: 'tool-pre perm-main' }, main), 'Request'));
  }
  if (req.blockedPath !== undefined && req.blockedPath !== '' && req.blockedPath !== t.text) {
    out.push(h('div', { class: 'perm-path muted' }, `Path: ${req.blockedPath}`));
  }
  if (isObject(req.input) && Object.keys(req.input).length > 0) {
    const simple = req.toolName === 'Bash' || req.toolName === 'Read';
    out.push(h('details', { class: 'tool-input', open: !simple },
      h('summary', null, 'Full input'), scrollBox(h('pre', { class: 'tool-pre' }, prettyJson(req.input)), 'Full input')));
  }
  return out;
}
