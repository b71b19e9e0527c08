// A session's workers as tabs (name, kind, status badge) with a close button
// each, the "History" menu and the "+" menu. Arrow keys move between tabs
// (roving tabindex). Every switch between chat and terminal leaves a
// stopped, read-only agent worker behind, and an agent that ended by itself
// stays dead once the conversation moved on: those are folded into History
// (one entry each, listed newest first), except the one being looked at.
// Labels are the words of kinds.ts (Chat, Terminal, Shell, Diff), never
// the API's kind names.
// The strip scrolls sideways; a newly selected tab is scrolled into view.
import { h, reconcile, setText } from '../dom';
import { isAgent, kindHint, workerLabel } from '../kinds';
import type { Worker, WorkerKind } from '../types';
import { AddWorkerMenu } from './add-worker-menu';
import { MenuButton } from './menu-button';

export interface TabActions {
  /** focusPane: the user activated the tab (click, Enter), not just arrowed onto it. */
  select(wid: string, focusPane: boolean): void;
  close(wid: string): void;
  add(kind: WorkerKind, agent?: string): void;
}

/**
 * The badge text: the agent's activity while running, else the status
 * (with exit code); '' for a running worker that has nothing more to say
 * (a shell, the diff: "running" is what a tab is).
 */
export function badgeText(w: Worker): string {
  if (isReadOnlyAgent(w)) return 'read-only';
  if (w.status === 'running') return w.activity ?? '';
  if (w.status === 'exited' && w.exitCode !== null) return `exited ${w.exitCode}`;
  return w.status;
}

/** A stopped agent worker: the conversation moved on, its history stays viewable. */
export function isReadOnlyAgent(w: Worker): boolean {
  return w.status === 'stopped' && isAgent(w);
}

/**
 * An agent worker that no longer drives the conversation: stopped by a
 * switch, or ended (exited, failed) while another one took over. The
 * session's active agent stays a tab even when it ended, to show why.
 */
export function isPastAgent(w: Worker, activeAgent: string | null): boolean {
  return isReadOnlyAgent(w) || (isAgent(w) && w.id !== activeAgent && w.status !== 'running' && w.status !== 'starting');
}

/**
 * shown in the order of workers, except that the conversation's tabs stand
 * where its first view stood: after a switch the chat is back in its place,
 * not at the end of the strip.
 */
function conversationFirst(workers: readonly Worker[], shown: Worker[]): Worker[] {
  const at = workers.findIndex(isAgent);
  if (at < 0) return shown;
  const before = new Set(workers.slice(0, at).map((w) => w.id));
  const head = shown.filter((w) => before.has(w.id));
  const agents = shown.filter((w) => !before.has(w.id) && isAgent(w));
  return [...head, ...agents, ...shown.filter((w) => !before.has(w.id) && !isAgent(w))];
}

export class WorkerTabs {
  readonly el: HTMLElement;
  readonly menu: AddWorkerMenu;
  private readonly list: HTMLElement;
  /**
   * The tab list of assistive technology: it owns the tabs (aria-owns),
   * and only them. A tablist may hold nothing but tabs, so the close
   * buttons beside them stay in the strip (this.list), outside it.
   */
  private readonly tablist: HTMLElement;
  private readonly history: MenuButton;
  private readonly tabs = new Map<string, HTMLElement>();
  private shown: Worker[] = [];
  private lastSelected: string | null = null;
  /** The selected tab has not been seen whole in the strip yet (revealTab). */
  private reveal = false;
  /**
   * Watches the strip and the selected tab: either can change size with no
   * render of the tabs after it (a status pill's text, the screen turned),
   * which can push the selected tab out of view again.
   */
  private readonly sizes = new ResizeObserver(() => this.onResize());
  private watched: HTMLElement | null = null;

  constructor(private readonly actions: TabActions) {
    this.list = h('div', { class: 'tabs' });
    this.tablist = h('div', { class: 'tabs-owner', role: 'tablist', 'aria-label': 'Workers' });
    this.menu = new AddWorkerMenu((kind, agent) => actions.add(kind, agent));
    this.history = new MenuButton(h('button', { class: 'btn btn-small history-btn', type: 'button', hidden: true }), 'Earlier agents');
    this.el = h('div', { class: 'tabbar' }, this.tablist, this.list, h('div', { class: 'tab-tools' }, this.history.el, this.menu.el));
    this.list.addEventListener('keydown', (ev) => this.onKey(ev));
    this.sizes.observe(this.list);
  }

  /** The workers shown as tabs, in order (Alt+1…9 count these). */
  get visible(): readonly Worker[] {
    return this.shown;
  }

  /** activeAgent: the session's activeAgentWorkerId (the agent that drives its conversation). */
  render(workers: Worker[], selected: string | null, activeAgent: string | null = null): void {
    const past = (w: Worker): boolean => isPastAgent(w, activeAgent);
    this.shown = conversationFirst(workers, workers.filter((w) => !past(w) || w.id === selected));
    reconcile(this.list, this.shown, (w) => w.id, this.tabs, (w) => this.create(w), (el, w) => this.update(el, w, w.id === selected));
    this.tablist.setAttribute('aria-owns', this.shown.map((w) => `tab-${w.id}`).join(' '));
    this.renderHistory(workers.filter((w) => past(w) && w.id !== selected).reverse());
    if (selected !== this.lastSelected) {
      this.lastSelected = selected;
      this.reveal = selected !== null;
    }
    this.watch(selected === null ? null : this.tabs.get(selected) ?? null);
    if (this.reveal && selected !== null) this.revealTab(selected);
  }

  private watch(el: HTMLElement | null): void {
    if (el === this.watched) return;
    if (this.watched !== null) this.sizes.unobserve(this.watched);
    this.watched = el;
    if (el !== null) this.sizes.observe(el);
  }

  /** A size changed: the selected tab is brought whole into the strip again. */
  private onResize(): void {
    if (this.lastSelected === null) return;
    this.reveal = true;
    this.revealTab(this.lastSelected);
  }

  /**
   * Scrolls the selected tab into the strip. A new worker's route comes
   * before its tab, and the tab still grows as its status settles, so this
   * runs at every render until the tab has been seen whole in the strip.
   */
  private revealTab(wid: string): void {
    const el = this.tabs.get(wid);
    if (el === undefined || !el.isConnected || el.offsetParent === null) return;
    const strip = this.list.getBoundingClientRect();
    const r = el.getBoundingClientRect();
    if (r.left >= strip.left - 1 && r.right <= strip.right + 1 && el.querySelector('[data-status="starting"]') === null) {
      this.reveal = false;
      return;
    }
    el.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }

  private renderHistory(folded: Worker[]): void {
    const btn = this.history.button;
    btn.hidden = folded.length === 0;
    setText(btn, `History (${folded.length})`);
    btn.title = 'Earlier chats and terminals of this conversation (read-only)';
    if (folded.length === 0 && this.history.isOpen) this.history.close(false);
    const items = folded.map((w) => {
      const hint = kindHint(w);
      const it = h('button', { class: 'menu-item history-item', type: 'button', 'data-wid': w.id, 'data-kind': w.kind, onClick: () => {
        this.history.close(false);
        this.actions.select(w.id, true);
      } }, `${workerLabel(w)}${hint === '' ? '' : ` (${hint})`} · ${new Date(w.createdAt).toLocaleString([], { dateStyle: 'medium', timeStyle: 'short' })}`);
      return it;
    });
    this.history.setItems(items, [h('div', { class: 'menu-note' }, 'Read-only: the conversation moved on.')]);
  }

  focusSelected(): void {
    this.list.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]')?.focus();
  }

  dispose(): void {
    this.sizes.disconnect();
    this.menu.dispose();
    this.history.dispose();
  }

  private create(w: Worker): HTMLElement {
    const tab = h('button', { class: 'tab-main', type: 'button', role: 'tab', id: `tab-${w.id}`, 'aria-controls': `pane-${w.id}`, onClick: () => this.actions.select(w.id, true) },
      h('span', { class: 'tab-name' }), h('span', { class: 'tab-kind' }), h('span', { class: 'badge' }));
    const close = h('button', { class: 'tab-close', type: 'button', tabindex: '-1', onClick: () => this.actions.close(w.id) }, '×');
    const el = h('div', { class: 'tab', role: 'presentation' }, tab, close);
    el.dataset.wid = w.id;
    el.dataset.kind = w.kind;
    return el;
  }

  private update(el: HTMLElement, w: Worker, selected: boolean): void {
    const [tab, close] = el.children as unknown as [HTMLButtonElement, HTMLButtonElement];
    const [name, kind, badge] = tab.children as unknown as [HTMLElement, HTMLElement, HTMLElement];
    const label = workerLabel(w);
    const hint = kindHint(w);
    const state = badgeText(w);
    setText(name, label);
    setText(kind, hint);
    kind.hidden = hint === '';
    setText(badge, state);
    badge.hidden = state === '';
    badge.dataset.status = w.status;
    badge.dataset.activity = w.activity ?? 'none';
    tab.title = `${label}${hint === '' ? '' : ` (${hint})`}${state === '' ? '' : ` — ${state}`}${w.error ? `: ${w.error}` : ''}`;
    tab.setAttribute('aria-selected', String(selected));
    tab.tabIndex = selected ? 0 : -1;
    el.classList.toggle('selected', selected);
    el.classList.toggle('read-only', isReadOnlyAgent(w));
    close.setAttribute('aria-label', `Close ${label}`);
    close.title = 'Close worker (Delete)';
  }

  private onKey(ev: KeyboardEvent): void {
    const tabs = [...this.list.querySelectorAll<HTMLButtonElement>('[role="tab"]')];
    const i = tabs.indexOf(document.activeElement as HTMLButtonElement);
    if (i < 0 || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    let next = -1;
    if (ev.key === 'ArrowRight') next = (i + 1) % tabs.length;
    else if (ev.key === 'ArrowLeft') next = (i - 1 + tabs.length) % tabs.length;
    else if (ev.key === 'Home') next = 0;
    else if (ev.key === 'End') next = tabs.length - 1;
    else if (ev.key === 'Delete') {
      ev.preventDefault();
      const wid = tabs[i]?.closest<HTMLElement>('.tab')?.dataset.wid;
      if (wid !== undefined) this.actions.close(wid);
      return;
    } else return;
    ev.preventDefault();
    const target = tabs[next];
    const wid = target?.closest<HTMLElement>('.tab')?.dataset.wid;
    if (target === undefined || wid === undefined) return;
    this.actions.select(wid, false);
    target.focus();
  }
}
