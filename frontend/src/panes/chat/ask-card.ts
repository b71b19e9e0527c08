// AskUserQuestion: each question with its options (radio buttons, or checkboxes
// for multiSelect), an "Other" free-text answer, Submit and Decline. The answer
// is an allow whose updatedInput is the input plus answers = {question: label},
// multiSelect labels joined with ", " (claude-cli.md §6).
import { h } from '../../dom';
import type { Answer, RequestCard } from './permission-card';
import { isObject, str, type PermissionRequest } from './protocol';

interface Question {
  question: string;
  header: string;
  multiSelect: boolean;
  options: { label: string; description: string }[];
}

interface QuestionView {
  q: Question;
  inputs: HTMLInputElement[];
  other: HTMLInputElement;
  otherText: HTMLInputElement;
}

let nextId = 0;

export class AskCard implements RequestCard {
  readonly el: HTMLElement;
  private readonly views: QuestionView[];
  private readonly submitBtn: HTMLButtonElement;
  private readonly declineBtn: HTMLButtonElement;
  private readonly error: HTMLElement;

  constructor(private readonly req: PermissionRequest, private readonly answer: (a: Answer) => void) {
    const group = `ask-${++nextId}`;
    const questions = parseQuestions(req.input);
    this.views = questions.map((q, i) => questionView(q, `${group}-${i}`));
    this.submitBtn = h('button', { class: 'btn btn-primary ask-submit', type: 'submit' }, 'Submit');
    this.declineBtn = h('button', { class: 'btn ask-decline', type: 'button' }, 'Decline');
    this.error = h('p', { class: 'form-error perm-error', role: 'alert' });
    const form = h('form', { class: 'ask-form' },
      ...this.views.map((v) => fieldset(v)),
      h('div', { class: 'perm-actions' }, this.submitBtn, this.declineBtn),
      this.error);
    this.el = h('div', { class: 'chat-perm chat-ask', role: 'group', 'aria-label': 'Claude has a question', 'data-request-id': req.requestId },
      h('div', { class: 'perm-head' }, questions.length > 1 ? 'Claude has questions' : 'Claude has a question'),
      form);
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      this.submit();
    });
    this.declineBtn.addEventListener('click', () => this.answer({ behavior: 'deny', message: 'The user declined to answer.' }));
  }

  focus(): void {
    (this.views[0]?.inputs[0] ?? this.submitBtn).focus();
  }

  setBusy(busy: boolean): void {
    for (const el of this.el.querySelectorAll<HTMLInputElement | HTMLButtonElement>('input, button')) el.disabled = busy;
    this.el.dataset.busy = String(busy);
  }

  setError(message: string): void {
    this.error.textContent = message;
  }

  private submit(): void {
    const answers: Record<string, string> = {};
    for (const v of this.views) {
      const a = chosen(v);
      if (a === '') {
        this.setError(`Choose an answer for "${v.q.question}", or Decline.`);
        (v.inputs[0] ?? v.otherText).focus();
        return;
      }
      answers[v.q.question] = a;
    }
    const input = isObject(this.req.input) ? this.req.input : {};
    this.answer({ behavior: 'allow', updatedInput: { ...input, answers } });
  }
}

function parseQuestions(input: unknown): Question[] {
  if (!isObject(input) || !Array.isArray(input.questions)) return [];
  return input.questions.filter(isObject).map((q) => ({
    question: str(q, 'question'),
    header: str(q, 'header'),
    multiSelect: q.multiSelect === true,
    options: (Array.isArray(q.options) ? q.options : []).filter(isObject)
      .map((o) => ({ label: str(o, 'label'), description: str(o, 'description') })),
  }));
}

function questionView(q: Question, name: string): QuestionView {
  const type = q.multiSelect ? 'checkbox' : 'radio';
  const inputs = q.options.map((o) => h('input', { type, name, value: o.label }));
  const other = h('input', { type, name, value: '', class: 'ask-other-choice', 'aria-label': 'Other' });
  const otherText = h('input', { type: 'text', class: 'ask-other-text', placeholder: 'Other answer…', 'aria-label': `Other answer to: ${q.question}` });
  // Typing an answer picks "Other"; clearing it (checkbox) unpicks it.
  otherText.addEventListener('input', () => {
    other.checked = otherText.value.trim() !== '' || (!q.multiSelect && other.checked);
  });
  return { q, inputs, other, otherText };
}

function fieldset(v: QuestionView): HTMLElement {
  return h('fieldset', { class: 'ask-q' },
    h('legend', null,
      v.q.header !== '' ? h('span', { class: 'ask-header' }, v.q.header) : null,
      h('span', { class: 'ask-question' }, v.q.question)),
    ...v.q.options.map((o, i) => h('label', { class: 'ask-opt' },
      v.inputs[i] ?? null,
      h('span', { class: 'ask-label' }, o.label),
      o.description !== '' ? h('span', { class: 'ask-desc' }, o.description) : null)),
    h('label', { class: 'ask-opt ask-other' }, v.other, h('span', { class: 'ask-label' }, 'Other:'), v.otherText));
}

/** The answer to one question: the chosen labels (joined with ", ") and the other text. */
function chosen(v: QuestionView): string {
  const picked = v.inputs.filter((i) => i.checked).map((i) => i.value);
  const other = v.otherText.value.trim();
  if (v.other.checked && other !== '') picked.push(other);
  return picked.join(', ');
}
