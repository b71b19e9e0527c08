// Selecting lines in the diff to comment on them. A click on a line number
// selects that line on its side (the left column is the old side, the right
// one the new side); shift+click extends the range. On touch screens a tap
// anywhere on a line selects it and a second tap extends the range. The
// comment box opens inline under the range. The section DOM is rebuilt
// freely (a new frame, scrolling far away), so selection, box and the marks
// of existing comments are put back after every change of the DOM.
import { errorMessage } from '../../api';
import { h } from '../../dom';
import { placeLabel, type CommentSide, type Place, type ReviewComment } from './review-model';

const coarse = typeof matchMedia === 'function' && matchMedia('(pointer: coarse)').matches;

export interface SelectorDeps {
  /** Stores the comment; rejects with a message to show. */
  add(p: Place, body: string): Promise<void>;
}

export class LineSelector {
  private sel: Place | null = null;
  private box: HTMLElement | null = null;
  private comments: ReviewComment[] = [];
  private frame = 0;
  private readonly observer: MutationObserver;

  constructor(private readonly root: HTMLElement, private readonly deps: SelectorDeps) {
    root.addEventListener('click', (ev) => this.onClick(ev));
    this.observer = new MutationObserver(() => this.schedule());
    this.observer.observe(root, { childList: true, subtree: true });
  }

  /** The stored comments, to mark their lines. */
  setComments(cs: ReviewComment[]): void {
    this.comments = cs;
    this.schedule();
  }

  dispose(): void {
    this.observer.disconnect();
    cancelAnimationFrame(this.frame);
  }

  private onClick(ev: MouseEvent): void {
    const t = ev.target as HTMLElement;
    if (t.closest('.rv-box') !== null) return;
    const row = t.closest<HTMLElement>('.dd-row');
    const path = row?.closest<HTMLElement>('.df-section')?.dataset.path;
    const nums = row?.querySelectorAll<HTMLElement>(':scope > .ln');
    if (row == null || path === undefined || nums === undefined || nums.length !== 2) return;
    if (!(window.getSelection()?.isCollapsed ?? true)) return; // copying text
    let side: CommentSide;
    if (t === nums[0]) side = 'old';
    else if (t === nums[1]) side = 'new';
    else if (coarse) side = nums[1]!.dataset.n !== '' ? 'new' : 'old';
    else return;
    const n = Number(nums[side === 'old' ? 0 : 1]!.dataset.n);
    if (!Number.isInteger(n) || n < 1) return;
    const s = this.sel;
    const extend = s !== null && s.path === path && s.side === side && (ev.shiftKey || (coarse && s.startLine === s.endLine && s.startLine !== n));
    this.sel = extend ? { path, side, startLine: Math.min(s.startLine, n), endLine: Math.max(s.endLine, n) } : { path, side, startLine: n, endLine: n };
    this.openBox();
    this.apply();
  }

  private openBox(): void {
    const sel = this.sel!;
    const text: HTMLTextAreaElement = this.box?.querySelector('textarea') ?? h('textarea', { class: 'rv-text', rows: 3, 'aria-label': 'Comment', placeholder: 'What should the agent change here?' });
    const err = h('div', { class: 'rv-error', role: 'alert', hidden: true });
    const add = h('button', { type: 'button', class: 'btn btn-primary rv-add', onClick: () => void this.submit(text, add, err) }, 'Add comment');
    const cancel = h('button', { type: 'button', class: 'btn rv-cancel', onClick: () => this.close() }, 'Cancel');
    text.onkeydown = (ev) => {
      if (ev.key === 'Enter' && (ev.ctrlKey || ev.metaKey)) void this.submit(text, add, err);
      else if (ev.key === 'Escape') this.close();
    };
    this.box?.remove();
    this.box = h('div', { class: 'rv-box', role: 'group', 'aria-label': 'New comment' },
      h('div', { class: 'rv-box-head' }, `Comment on ${placeLabel(sel)}`), text, err, h('div', { class: 'rv-box-actions' }, add, cancel));
    this.box.style.width = `${Math.max(200, this.root.clientWidth - 16)}px`;
    queueMicrotask(() => text.focus({ preventScroll: true }));
  }

  private async submit(text: HTMLTextAreaElement, btn: HTMLButtonElement, err: HTMLElement): Promise<void> {
    if (this.sel === null || btn.disabled) return;
    btn.disabled = true;
    try {
      await this.deps.add(this.sel, text.value);
      this.close();
    } catch (e) {
      err.textContent = errorMessage(e);
      err.hidden = false;
    } finally {
      btn.disabled = false;
    }
  }

  private close(): void {
    this.sel = null;
    this.box?.remove();
    this.box = null;
    this.apply();
  }

  private schedule(): void {
    if (this.frame !== 0) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.apply();
    });
  }

  /** Marks selected and commented rows, and puts the box under the selection. */
  private apply(): void {
    for (const r of this.root.querySelectorAll('.rv-sel, .rv-marked')) r.classList.remove('rv-sel', 'rv-marked', 'rv-sent', 'rv-outdated');
    for (const c of this.comments) {
      for (const r of this.rows(c)) r.classList.add('rv-marked', ...(c.status === 'sent' ? ['rv-sent'] : []), ...(c.outdated ? ['rv-outdated'] : []));
    }
    if (this.sel === null) return;
    const rows = this.rows(this.sel);
    rows.forEach((r) => r.classList.add('rv-sel'));
    const last = rows.at(-1);
    if (this.box !== null && last !== undefined && last.nextElementSibling !== this.box) last.after(this.box);
  }

  private rows(p: Place): HTMLElement[] {
    const sec = [...this.root.querySelectorAll<HTMLElement>('.df-section')].find((s) => s.dataset.path === p.path);
    if (sec === undefined) return [];
    const i = p.side === 'old' ? 0 : 1;
    return [...sec.querySelectorAll<HTMLElement>('.dd-row')].filter((r) => {
      const n = Number(r.querySelectorAll<HTMLElement>(':scope > .ln')[i]?.dataset.n || NaN);
      return n >= p.startLine && n <= p.endLine;
    });
  }
}
