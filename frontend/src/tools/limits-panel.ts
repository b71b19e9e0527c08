// The limits and the appended prompt of a chat worker (PATCH …/workers/:wid,
// docs/api-extensions.md "Per-session limits and prompt"): a form that saves
// only what changed. The agent runs with them from its next start, which
// agentdesk makes before the next message.
import { errorMessage, type Api } from '../api';
import { h } from '../dom';
import type { Worker } from '../types';

/** The limits fields of a Worker (docs/api-extensions.md). */
export interface LimitFields {
  appendSystemPrompt?: string;
  maxTurns?: number;
  maxBudgetUsd?: number;
  allowedTools?: string[];
  disallowedTools?: string[];
  addDirs?: string[];
}

type Field = keyof LimitFields;

const list = (s: string, sep: RegExp): string[] => s.split(sep).map((x) => x.trim()).filter((x) => x !== '');

export class LimitsPanel {
  readonly el: HTMLElement;
  private readonly error = h('p', { class: 'form-error', role: 'alert' });
  private readonly saved = h('p', { class: 'limits-saved', role: 'status' });
  private readonly fields: Record<Field, HTMLInputElement | HTMLTextAreaElement>;

  constructor(private readonly api: Api, private readonly sid: string, private worker: Worker & LimitFields, onSaved: (w: Worker) => void) {
    const w = worker;
    this.fields = {
      appendSystemPrompt: h('textarea', { name: 'appendSystemPrompt', rows: 3, placeholder: 'e.g. Answer in French. Never push to main.' }),
      maxTurns: h('input', { name: 'maxTurns', type: 'number', min: 1, max: 10000, step: 1, inputmode: 'numeric', placeholder: 'no limit' }),
      maxBudgetUsd: h('input', { name: 'maxBudgetUsd', type: 'number', min: 0.01, step: 0.01, inputmode: 'decimal', placeholder: 'no limit' }),
      allowedTools: h('input', { name: 'allowedTools', type: 'text', placeholder: 'e.g. Read, mcp__agentdesk__*' }),
      disallowedTools: h('input', { name: 'disallowedTools', type: 'text', placeholder: 'e.g. Bash(rm *), WebFetch' }),
      addDirs: h('textarea', { name: 'addDirs', rows: 2, placeholder: '/absolute/path, one per line' }),
    };
    this.fill(w);
    const row = (label: string, f: Field, hint: string): HTMLElement =>
      h('label', { class: 'limits-row' }, h('span', { class: 'limits-label' }, label), this.fields[f], h('span', { class: 'limits-hint' }, hint));
    const form = h('form', { class: 'limits-form', 'aria-label': 'Limits and prompt' },
      row('Add to the system prompt', 'appendSystemPrompt', 'Appended to the agent’s own instructions.'),
      row('Max turns per message', 'maxTurns', 'The agent stops after this many steps and waits; Continue goes on. Chat only: the terminal view’s Claude ignores it.'),
      row('Budget (USD)', 'maxBudgetUsd', 'For the whole conversation, counted by agentdesk across restarts. Chat only: the terminal view’s Claude ignores it.'),
      row('Allowed tools', 'allowedTools', 'Used without asking; comma-separated.'),
      row('Disallowed tools', 'disallowedTools', 'Never used; comma-separated. Beats allowed.'),
      row('Additional directories', 'addDirs', 'Besides the session’s, one per line.'),
      h('div', { class: 'form-actions' }, h('button', { class: 'btn btn-primary', type: 'submit' }, 'Save limits')),
      this.error, this.saved);
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      void this.save(onSaved);
    });
    this.el = h('section', { class: 'agent-section limits-panel' }, h('h3', null, 'Limits and prompt'), form);
  }

  private fill(w: LimitFields): void {
    this.fields.appendSystemPrompt.value = w.appendSystemPrompt ?? '';
    this.fields.maxTurns.value = w.maxTurns ? String(w.maxTurns) : '';
    this.fields.maxBudgetUsd.value = w.maxBudgetUsd ? String(w.maxBudgetUsd) : '';
    this.fields.allowedTools.value = (w.allowedTools ?? []).join(', ');
    this.fields.disallowedTools.value = (w.disallowedTools ?? []).join(', ');
    this.fields.addDirs.value = (w.addDirs ?? []).join('\n');
  }

  /** The form's values, as the PATCH body takes them. */
  private values(): Required<LimitFields> {
    const f = this.fields;
    return {
      appendSystemPrompt: f.appendSystemPrompt.value.trim(),
      maxTurns: f.maxTurns.value === '' ? 0 : Number(f.maxTurns.value),
      maxBudgetUsd: f.maxBudgetUsd.value === '' ? 0 : Number(f.maxBudgetUsd.value),
      allowedTools: list(f.allowedTools.value, /,/),
      disallowedTools: list(f.disallowedTools.value, /,/),
      addDirs: list(f.addDirs.value, /\n/),
    };
  }

  private async save(onSaved: (w: Worker) => void): Promise<void> {
    this.error.textContent = '';
    this.saved.textContent = '';
    const next = this.values();
    const cur = this.worker;
    const body: Record<string, unknown> = {};
    for (const k of Object.keys(next) as Field[]) {
      const was = cur[k] ?? (Array.isArray(next[k]) ? [] : typeof next[k] === 'number' ? 0 : '');
      if (JSON.stringify(was) !== JSON.stringify(next[k])) body[k] = next[k];
    }
    if (Object.keys(body).length === 0) {
      this.saved.textContent = 'Nothing changed.';
      return;
    }
    try {
      const w = await this.api.request<Worker & LimitFields>('PATCH', this.api.workerPath(this.sid, cur.id), body);
      this.worker = w;
      this.fill(w);
      this.saved.textContent = 'Saved. The agent runs with these limits from your next message.';
      onSaved(w);
    } catch (err) {
      this.error.textContent = errorMessage(err);
    }
  }
}
