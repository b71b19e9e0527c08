// One session's main area: heading, worker tabs, and the panes of visited tabs.
// Panes stay alive (hidden) while the view lives, so switching tabs or sessions
// does not reconnect; a pane is disposed when its worker goes away.
import { errorMessage, type Api } from '../api';
import { h, setText } from '../dom';
import { fileKind, fileOpener, kindInfo, workerLabel } from '../kinds';
import { createPane, type Pane } from '../panes/registry';
import type { Store } from '../store';
import type { Session, Worker, WorkerKind } from '../types';
import { askConfirm } from './dialog';
import { SandboxBadge } from './sandbox-badge';
import { sessionBranch, sessionLabel } from './session-row';
import { SwitchControl } from './switch-control';
import { WorkerTabs } from './worker-tabs';

export interface SessionViewDeps {
  api: Api;
  store: Store;
  /** The selected worker changed (to keep the URL in step). */
  onSelected(sid: string, wid: string | null): void;
}

export class SessionView {
  readonly el: HTMLElement;
  private readonly title: HTMLElement;
  private readonly cwd: HTMLElement;
  private readonly branch: HTMLElement;
  private readonly sandbox = new SandboxBadge();
  private readonly tabs: WorkerTabs;
  private readonly switcher: SwitchControl;
  private readonly error: HTMLElement;
  private readonly paneArea: HTMLElement;
  private readonly empty: HTMLElement;
  private readonly panes = new Map<string, Pane>();
  private selected: string | null = null;
  private wanted: string | null = null;
  private pendingFile: { wid: string; path: string } | null = null;

  constructor(private session: Session, private readonly deps: SessionViewDeps) {
    this.title = h('h2', { class: 'session-heading' });
    this.cwd = h('span', { class: 'session-dir' });
    this.branch = h('span', { class: 'head-branch', hidden: true });
    this.tabs = new WorkerTabs({
      select: (wid, focusPane) => this.select(wid, focusPane),
      close: (wid) => void this.closeWorker(wid),
      add: (kind, agent) => void this.addWorker(kind, agent),
    });
    this.switcher = new SwitchControl({
      api: deps.api,
      switched: (w) => this.switched(w),
      failed: (m) => (this.error.textContent = m),
    });
    this.error = h('p', { class: 'form-error view-error', role: 'alert' });
    this.empty = h('div', { class: 'empty-pane empty-state' },
      h('h2', null, 'No workers in this session yet'),
      h('p', null, 'Workers are what runs here: a chat with Claude, Claude in a terminal, a shell, or a live git diff.'),
      h('p', { class: 'muted' }, 'Add one with the + button above (Alt+T opens a shell).'));
    this.paneArea = h('div', { class: 'pane-area' }, this.empty);
    this.el = h('section', { class: 'session-view', 'aria-label': 'Session' },
      // The badge beside the title, not in the meta row a phone hides: whether
      // the agent runs in a box is always in sight.
      h('div', { class: 'session-head' }, this.title, this.sandbox.badge, h('div', { class: 'session-meta' }, this.cwd, this.branch), this.switcher.el),
      this.sandbox.panel, this.tabs.el, this.error, this.paneArea);
    // A file link in a tool card or the diff: show that file in the session's Files tab.
    this.paneArea.addEventListener('agentdesk-open-file', (ev) => void this.openFile((ev as CustomEvent<{ path: string }>).detail.path));
    this.update(session);
  }

  /**
   * Shows path in the session's Files tab, adding one when the session has
   * none (the file is opened once its pane exists, after the store's update).
   */
  private async openFile(path: string): Promise<void> {
    let w = fileOpener(this.session.workers);
    if (w === undefined) {
      try {
        w = await this.deps.api.createWorker(this.session.id, { kind: fileKind().kind });
      } catch (err) {
        this.error.textContent = `Could not add the Files tab: ${errorMessage(err)}`;
        return;
      }
      this.pendingFile = { wid: w.id, path };
      this.showNew(w);
      return;
    }
    this.wanted = w.id;
    this.pendingFile = { wid: w.id, path };
    this.select(w.id, true);
    this.openPendingFile();
  }

  /** Hands a file waiting for its Files pane to it, once the pane exists. */
  private openPendingFile(): void {
    const p = this.pendingFile;
    const pane = p === null ? undefined : this.panes.get(p.wid);
    if (p === null || pane === undefined) return;
    this.pendingFile = null;
    pane.openFile?.(p.path);
  }

  get sessionId(): string {
    return this.session.id;
  }

  /** Shows the view with the worker the URL names (null: keep or pick one). */
  show(wid: string | null): void {
    this.el.hidden = false;
    this.wanted = wid;
    this.update(this.session);
  }

  hide(): void {
    this.el.hidden = true;
  }

  update(session: Session): void {
    this.session = session;
    setText(this.title, sessionLabel(session));
    this.title.title = `${sessionLabel(session)} — ${session.cwd}`; // a phone shows no folder line
    setText(this.cwd, session.cwd);
    this.cwd.title = session.cwd;
    const branch = sessionBranch(session);
    setText(this.branch, branch ?? '');
    this.branch.title = branch === null ? '' : `Branch ${branch}`;
    this.branch.hidden = branch === null;
    this.sandbox.update(session);
    const ids = new Set(session.workers.map((w) => w.id));
    for (const [wid, pane] of this.panes) {
      if (!ids.has(wid)) {
        pane.dispose();
        this.panes.delete(wid);
      }
    }
    for (const w of session.workers) this.panes.get(w.id)?.update?.(w, session);
    this.switcher.update(session);
    this.empty.hidden = session.workers.length > 0;
    this.select(this.pick(session.workers), false);
    this.openPendingFile();
  }

  /** Selects the n-th tab (0-based), if it exists. */
  selectIndex(n: number): void {
    const w = this.tabs.visible[n];
    if (w !== undefined) this.select(w.id, true);
  }

  focusPane(): void {
    if (this.selected !== null) this.panes.get(this.selected)?.focus?.();
    else this.tabs.el.querySelector<HTMLElement>('.add-worker')?.focus();
  }

  async addWorker(kind: WorkerKind, agent?: string): Promise<void> {
    this.error.textContent = '';
    try {
      this.showNew(await this.deps.api.createWorker(this.session.id, agent === undefined ? { kind } : { kind, agent }));
    } catch (err) {
      this.error.textContent = `Could not add the ${kindInfo(kind, agent).label}: ${errorMessage(err)}`;
    }
  }

  /** The shown chat's next permission mode (Alt+M). */
  cycleMode(): void {
    if (this.selected !== null) this.panes.get(this.selected)?.cycleMode?.();
  }

  /** Moves the conversation between chat and terminal (Alt+J). */
  switchAgent(): void {
    this.error.textContent = '';
    void this.switcher.run();
  }

  dispose(): void {
    for (const p of this.panes.values()) p.dispose();
    this.panes.clear();
    this.tabs.dispose();
    this.el.remove();
  }

  select(wid: string | null, focusPane: boolean): void {
    const w = wid === null ? undefined : this.session.workers.find((x) => x.id === wid);
    const id = w?.id ?? null;
    if (id !== this.selected) {
      if (this.selected !== null) this.panes.get(this.selected)?.hide();
      this.selected = id;
      if (w !== undefined) this.paneFor(w).show();
    }
    if (id !== null) this.wanted = id;
    this.tabs.render(this.session.workers, id, this.session.activeAgentWorkerId);
    if (!this.el.hidden) this.deps.onSelected(this.session.id, id);
    if (focusPane && id !== null) this.panes.get(id)?.focus?.();
  }

  private pick(workers: Worker[]): string | null {
    const has = (id: string | null): id is string => id !== null && workers.some((w) => w.id === id);
    if (has(this.wanted)) return this.wanted;
    if (has(this.selected)) return this.selected;
    if (has(this.session.activeAgentWorkerId)) return this.session.activeAgentWorkerId;
    return workers[0]?.id ?? null;
  }

  private paneFor(w: Worker): Pane {
    let pane = this.panes.get(w.id);
    if (pane === undefined) {
      pane = createPane({ session: this.session, worker: w, api: this.deps.api });
      pane.el.id = `pane-${w.id}`;
      pane.el.setAttribute('role', 'tabpanel');
      pane.el.setAttribute('aria-labelledby', `tab-${w.id}`);
      this.panes.set(w.id, pane);
      this.paneArea.append(pane.el);
    }
    return pane;
  }

  /**
   * Shows a worker just created here. The store tells its listeners a
   * microtask later, and a select before then would find no such worker
   * (and pick another tab for good), so this view takes the store's session
   * now.
   */
  private showNew(w: Worker): void {
    const { store } = this.deps;
    store.upsertWorker(w);
    this.wanted = w.id;
    const s = store.session(this.session.id);
    if (s !== undefined) this.update(s);
    this.select(w.id, true);
  }

  /** A switch made w the session's agent: show it now, before the /ws/app frames confirm it. */
  private switched(w: Worker): void {
    const { store } = this.deps;
    store.upsertWorker(w);
    const s = store.session(this.session.id);
    this.wanted = w.id;
    if (s === undefined) return;
    const now = s.activeAgentWorkerId === w.id ? s : { ...s, activeAgentWorkerId: w.id };
    if (now !== s) store.upsertSession(now);
    this.update(now);
    this.select(w.id, true);
  }

  private async closeWorker(wid: string): Promise<void> {
    const w = this.session.workers.find((x) => x.id === wid);
    if (w === undefined) return;
    const answer = await askConfirm({
      title: `Close “${workerLabel(w)}”?`,
      body: [w.status === 'stopped' ? 'Its history is removed from agentdesk.' : 'Its process is ended and its history is removed from agentdesk.'],
      confirm: 'Close worker',
      danger: true,
    });
    if (!answer.ok) return;
    this.error.textContent = '';
    try {
      await this.deps.api.deleteWorker(this.session.id, wid);
      this.deps.store.removeWorker(this.session.id, wid);
      // The store re-renders in a microtask queued above; focus the new selection after it.
      queueMicrotask(() => this.tabs.focusSelected());
    } catch (err) {
      this.error.textContent = `Could not close the worker: ${errorMessage(err)}`;
    }
  }
}
