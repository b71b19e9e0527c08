// The diff pane's header: base selector (Enter or Apply sends set-base, Reset
// goes back to the default base), base and head shas, totals, refresh with
// its indicator, collapse/expand all. It only shows state and reports intents;
// the pane owns the socket. On a narrow screen the controls (this bar's,
// "Stage & commit" and the review tray) fold behind one "Controls" button
// (diff.css), so the diff starts near the top; nothing here takes the focus
// into a text field by itself (a phone's keyboard would pop up).
import { h, setText } from '../../dom';
import { shortSha, totals, type Diff } from './model';

export interface ToolbarActions {
  setBase(base: string): void;
  refresh(): void;
  collapseAll(collapsed: boolean): void;
}

/** busy: waiting for a diff; ok: up to date; warn: connecting; error: failed. */
export type IndicatorState = 'busy' | 'ok' | 'warn' | 'error';

export class Toolbar {
  readonly el: HTMLElement;
  private readonly input: HTMLInputElement;
  private readonly baseError: HTMLElement;
  private readonly shas: HTMLElement;
  private readonly sums: HTMLElement;
  private readonly indicator: HTMLElement;
  private readonly indicatorText: HTMLElement;
  private readonly refreshBtn: HTMLButtonElement;
  private readonly foldBtn: HTMLButtonElement;
  private workerBase = '';

  constructor(private readonly actions: ToolbarActions, inputId: string) {
    this.input = h('input', { id: inputId, class: 'dd-base-input', type: 'text', placeholder: 'default (merge base)', spellcheck: 'false', autocomplete: 'off', 'aria-describedby': `${inputId}-err` });
    this.input.addEventListener('keydown', (ev) => this.onInputKey(ev));
    this.baseError = h('span', { id: `${inputId}-err`, class: 'dd-base-error', role: 'alert' });
    const form = h('div', { class: 'dd-base' },
      h('label', { for: inputId, class: 'dd-base-label' }, 'Base'),
      this.input,
      h('button', { type: 'button', class: 'btn btn-small', onClick: () => this.apply(this.input.value) }, 'Apply'),
      h('button', { type: 'button', class: 'btn btn-small', title: 'Diff against the merge base with the default branch', onClick: () => this.apply('') }, 'Reset to default'),
      this.baseError);
    this.shas = h('span', { class: 'dd-shas' });
    this.sums = h('span', { class: 'dd-totals' });
    this.indicatorText = h('span', { class: 'dd-ind-text' });
    this.indicator = h('span', { class: 'dd-indicator' }, h('span', { class: 'dd-spinner', 'aria-hidden': 'true' }), this.indicatorText);
    this.refreshBtn = h('button', { type: 'button', class: 'btn btn-small', title: 'Compute the diff again', onClick: () => actions.refresh() }, '⟳ Refresh');
    this.foldBtn = h('button', { type: 'button', class: 'btn btn-small dd-fold', 'aria-expanded': 'false', title: 'Base, refresh, stage & commit, review', onClick: () => this.setFolded(this.foldBtn.getAttribute('aria-expanded') === 'true') }, 'Controls');
    const tools = h('span', { class: 'dd-tools' },
      this.refreshBtn,
      this.indicator,
      h('button', { type: 'button', class: 'btn btn-small', onClick: () => actions.collapseAll(true) }, 'Collapse all'),
      h('button', { type: 'button', class: 'btn btn-small', onClick: () => actions.collapseAll(false) }, 'Expand all'));
    this.el = h('div', { class: 'dd-toolbar' }, form, h('span', { class: 'dd-summary' }, this.shas, this.sums), this.foldBtn, tools);
  }

  /** Folds (or shows) the controls on a narrow screen: the pane's data-controls says which. */
  private setFolded(folded: boolean): void {
    this.foldBtn.setAttribute('aria-expanded', String(!folded));
    const pane = this.el.closest<HTMLElement>('.pane-diff');
    if (pane === null) return;
    if (folded) delete pane.dataset.controls;
    else pane.dataset.controls = 'open';
  }

  /** The worker's base commit-ish (store updates); the input follows it unless the user is typing or fixing an error. */
  setWorkerBase(base: string): void {
    this.workerBase = base;
    if (document.activeElement !== this.input && this.baseError.textContent === '') this.input.value = base;
  }

  setDiff(d: Diff): void {
    const base = h('code', { title: d.base }, shortSha(d.base));
    const head = d.head === null ? h('span', { class: 'muted' }, 'no commits') : h('code', { title: d.head }, shortSha(d.head));
    this.shas.replaceChildren('base ', base, ' → head ', head);
    const t = totals(d.files);
    setText(this.sums, `${t.files} ${t.files === 1 ? 'file' : 'files'}, +${t.additions} −${t.deletions}`);
  }

  /** Shows (or with '' clears) the set-base error next to the input. */
  setBaseError(msg: string): void {
    setText(this.baseError, msg);
    this.input.setAttribute('aria-invalid', String(msg !== ''));
  }

  setIndicator(state: IndicatorState, text: string): void {
    this.indicator.dataset.state = state;
    setText(this.indicatorText, text);
  }

  /** Focuses the first control shown: the fold button on a phone, else Refresh; never the base field. */
  focus(): void {
    (this.foldBtn.offsetParent !== null ? this.foldBtn : this.refreshBtn).focus();
  }

  private apply(value: string): void {
    const base = value.trim();
    this.input.value = base;
    this.actions.setBase(base);
  }

  private onInputKey(ev: KeyboardEvent): void {
    if (ev.key === 'Enter') {
      ev.preventDefault();
      this.apply(this.input.value);
    } else if (ev.key === 'Escape') {
      this.input.value = this.workerBase;
      this.setBaseError('');
      this.input.blur();
    }
  }
}
