// ExitPlanMode: the plan Claude proposes, rendered as markdown (planHtml, made
// by the server's sanitizing renderer), with "Approve and auto-accept edits"
// (allow, mode acceptEdits), "Approve, ask for each edit" (allow, mode
// default) and "Keep planning" with feedback (deny, the feedback as message).
import { highlightBlocks } from '../../code/highlight';
import { h } from '../../dom';
import { codeBoxes, scrollBox } from '../../scroll-box';
import type { Answer, RequestCard } from './permission-card';
import { str, type PermissionRequest } from './protocol';

/** The permission update that sets the session's mode with an approval. */
function setMode(mode: string): unknown[] {
  return [{ type: 'setMode', mode, destination: 'session' }];
}

export class PlanCard implements RequestCard {
  readonly el: HTMLElement;
  private readonly autoBtn: HTMLButtonElement;
  private readonly askBtn: HTMLButtonElement;
  private readonly keepBtn: HTMLButtonElement;
  private readonly feedback: HTMLTextAreaElement;
  private readonly error: HTMLElement;

  constructor(req: PermissionRequest, private readonly answer: (a: Answer) => void) {
    const body = h('div', { class: 'md plan-body' });
    if (typeof req.planHtml === 'string' && req.planHtml !== '') {
      body.innerHTML = req.planHtml; // sanitized by the server (goldmark, no raw HTML)
      codeBoxes(body);
      highlightBlocks(body);
    } else {
      body.append(scrollBox(h('pre', { class: 'tool-pre' }, str(req.input, 'plan') || '(Claude sent no plan text)'), 'Plan'));
    }
    this.autoBtn = h('button', { class: 'btn btn-primary plan-approve-auto', type: 'button' }, 'Approve and auto-accept edits');
    this.askBtn = h('button', { class: 'btn plan-approve-ask', type: 'button' }, 'Approve, ask for each edit');
    this.keepBtn = h('button', { class: 'btn plan-keep', type: 'button' }, 'Keep planning');
    this.feedback = h('textarea', { class: 'plan-feedback', rows: 2, placeholder: 'What should change? (sent with Keep planning)', 'aria-label': 'Feedback on the plan' });
    this.error = h('p', { class: 'form-error perm-error', role: 'alert' });
    this.el = h('div', { class: 'chat-perm chat-plan', role: 'group', 'aria-label': 'Claude proposes a plan', 'data-request-id': req.requestId },
      h('div', { class: 'perm-head' }, 'Claude proposes a plan'),
      body,
      h('div', { class: 'perm-actions plan-actions' }, this.autoBtn, this.askBtn),
      h('div', { class: 'perm-actions plan-keep-row' }, this.feedback, this.keepBtn),
      this.error);
    this.autoBtn.addEventListener('click', () => this.answer({ behavior: 'allow', updatedPermissions: setMode('acceptEdits') }));
    this.askBtn.addEventListener('click', () => this.answer({ behavior: 'allow', updatedPermissions: setMode('default') }));
    this.keepBtn.addEventListener('click', () => this.keep());
  }

  focus(): void {
    this.autoBtn.focus();
  }

  setBusy(busy: boolean): void {
    for (const el of [this.autoBtn, this.askBtn, this.keepBtn, this.feedback]) el.disabled = busy;
    this.el.dataset.busy = String(busy);
  }

  setError(message: string): void {
    this.error.textContent = message;
  }

  private keep(): void {
    const text = this.feedback.value.trim();
    this.answer({ behavior: 'deny', message: text !== '' ? text : 'Keep planning: the user wants changes to the plan before any edit.' });
  }
}
