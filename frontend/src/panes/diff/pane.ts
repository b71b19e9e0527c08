// The git-diff pane: a toolbar, the list of changed files and the diff
// itself, fed by the worker socket (a "diff" frame on connect and after every
// change, "error" frames for a bad base or a failed diff). Everything the
// user does goes back as refresh / set-base frames; the indicator says
// "updating…" from such a frame until the next answer.
import { h } from '../../dom';
import type { Session, Worker } from '../../types';
import { ReconnectingSocket, wsUrl, type SocketState } from '../../ws';
import type { Pane, PaneContext } from '../registry';
import { FileList } from './file-list';
import { GitPanel } from './git-panel';
import { shortSha, type Diff, type DiffFile, type DiffFrame } from './model';
import { LineSelector } from './review-select';
import { ReviewTray } from './review-tray';
import { SectionList } from './sections';
import { Toolbar, type IndicatorState } from './toolbar';

/** Longest wait for a worker to leave "starting" before connecting anyway. */

export class DiffPane implements Pane {
  readonly el: HTMLElement;
  private readonly toolbar: Toolbar;
  private readonly banner: HTMLElement;
  private readonly message: HTMLElement;
  private readonly list: FileList;
  private readonly sections: SectionList;
  private readonly main: HTMLElement;
  private readonly gitPanel: GitPanel;
  private readonly review: ReviewTray;
  private readonly selector: LineSelector;
  private socket: ReconnectingSocket | null = null;
  private worker: Worker;
  private diff: Diff | null = null;
  private waiting = true; // no diff since the socket opened
  private pending = false; // a refresh or set-base is unanswered
  private updatedAt: Date | null = null;
  private shown = false;
  /** A file asked for by openFile before the diff that holds it came. */
  private wantedFile: string | null = null;

  constructor(private readonly ctx: PaneContext) {
    this.worker = ctx.worker;
    this.toolbar = new Toolbar({
      setBase: (base) => this.send({ type: 'set-base', base }, () => this.toolbar.setBaseError('')),
      refresh: () => this.send({ type: 'refresh' }),
      collapseAll: (c) => this.sections.setAllCollapsed(c),
    }, `dd-base-${ctx.worker.id}`);
    this.banner = h('div', { class: 'dd-banner', role: 'alert', hidden: true });
    this.message = h('div', { class: 'dd-message' }, 'Loading diff…');
    this.list = new FileList((path) => this.sections.scrollTo(path));
    this.sections = new SectionList({
      fetchFull: (path) => this.fetchFull(path),
      onCurrent: (path) => this.list.setCurrent(path, true),
    });
    const side = h('nav', { class: 'dd-side', 'aria-label': 'Changed files' }, this.list.el);
    this.main = h('div', { class: 'dd-main', hidden: true }, side, this.sections.el);
    this.gitPanel = new GitPanel(ctx.api, ctx.session);
    this.selector = new LineSelector(this.sections.el, { add: (p, body) => this.review.add(p, body) });
    this.review = new ReviewTray(ctx.api, ctx.session, (cs) => this.selector.setComments(cs));
    this.el = h('div', { class: 'pane pane-diff', hidden: true }, this.toolbar.el, this.gitPanel.el, this.review.el, this.banner, this.message, this.main);
    this.el.dataset.workerId = ctx.worker.id;
    this.el.addEventListener('keydown', (ev) => this.onKey(ev));
    this.toolbar.setWorkerBase(ctx.worker.base ?? '');
    this.renderWorkerError();
    this.renderIndicator();
  }

  show(): void {
    this.shown = true;
    this.el.hidden = false;
    this.sections.setVisible(true);
    this.list.setCurrent(this.list.currentPath, true);
    this.maybeConnect();
  }

  hide(): void {
    this.shown = false;
    this.sections.setVisible(false);
    this.el.hidden = true;
  }

  focus(): void {
    if (this.diff !== null && this.diff.files.length > 0) this.list.focus();
    else this.toolbar.focus();
  }

  update(worker: Worker, session: Session): void {
    this.worker = worker;
    this.gitPanel.setSession(session);
    this.review.setSession(session);
    this.toolbar.setWorkerBase(worker.base ?? '');
    this.renderWorkerError();
    if (this.shown) this.maybeConnect();
    if (this.diff !== null && this.diff.files.length === 0) this.renderDiff(this.diff);
  }

  dispose(): void {
    this.socket?.dispose();
    this.gitPanel.dispose();
    this.selector.dispose();
    this.sections.dispose();
    this.el.remove();
  }

  /**
   * Opens the worker socket. A worker that is still starting is fine: the
   * server holds the upgrade until its runtime is ready.
   */
  private maybeConnect(): void {
    if (this.socket === null) this.connect();
  }

  private connect(): void {
    const path = `/ws/sessions/${encodeURIComponent(this.ctx.session.id)}/workers/${encodeURIComponent(this.worker.id)}`;
    this.socket = new ReconnectingSocket({
      url: () => wsUrl(path),
      onOpen: () => {
        this.waiting = true;
        this.pending = false;
      },
      onMessage: (data) => {
        if (typeof data === 'string') this.onFrame(data);
      },
      onState: () => this.renderIndicator(),
    });
    this.renderIndicator();
  }

  /** Sends a client frame; before() runs only if it could be sent. */
  private send(frame: { type: string; base?: string }, before?: () => void): void {
    if (this.socket === null || !this.socket.isOpen) {
      this.toolbar.setIndicator('error', 'not connected');
      return;
    }
    before?.();
    this.socket.send(frame);
    this.pending = true;
    this.renderIndicator();
  }

  private onFrame(data: string): void {
    let f: DiffFrame;
    try {
      f = JSON.parse(data) as DiffFrame;
    } catch {
      return;
    }
    if (f.type === 'diff') {
      const { type: _type, ...d } = f;
      this.waiting = this.pending = false;
      this.updatedAt = new Date();
      this.banner.hidden = true;
      this.renderDiff({ base: d.base, head: d.head ?? null, files: d.files ?? [] });
      this.gitPanel.refresh(); // staging moved the index, or the tree changed
      this.review.refresh(); // comments may be outdated now
    } else if (f.type === 'error') {
      this.pending = false;
      if (f.code === 'invalid_base') {
        this.toolbar.setBaseError(f.message);
      } else {
        const what = f.code === 'diff_failed' ? 'The diff could not be computed' : `Error (${f.code})`;
        this.showBanner(`${what}: ${f.message}`);
      }
    }
    this.renderIndicator();
  }

  private renderDiff(d: Diff): void {
    this.diff = d;
    this.toolbar.setDiff(d);
    const empty = d.files.length === 0;
    this.message.hidden = !empty;
    this.main.hidden = empty;
    if (empty) {
      const base = this.worker.base ? `${this.worker.base} (${shortSha(d.base)})` : `the default base (${shortSha(d.base)})`;
      this.message.replaceChildren(h('p', null, `No changes against ${base}.`),
        h('p', { class: 'hint' }, `Edits made in ${this.ctx.session.cwd} (by Claude, a terminal or your editor) show up here as they happen.`));
    }
    this.list.setFiles(d.files);
    this.sections.setFiles(d.files);
    if (this.wantedFile !== null) this.openFile(this.wantedFile);
  }

  /** Scrolls to path's section; path may be absolute (a tool's file_path) or relative to the repository. */
  openFile(path: string): void {
    const f = this.diff?.files.find((x) => x.path === path || path.endsWith(`/${x.path}`));
    this.wantedFile = f === undefined && this.diff === null ? path : null;
    if (f === undefined) return;
    this.list.setCurrent(f.path, true);
    this.sections.scrollTo(f.path);
  }

  private renderIndicator(): void {
    const s: SocketState = this.socket?.state ?? 'connecting';
    let state: IndicatorState = 'ok';
    let text: string;
    if (s === 'connecting' || s === 'reconnecting') [state, text] = ['warn', s === 'connecting' ? 'connecting…' : 'reconnecting…'];
    else if (s !== 'open') [state, text] = ['error', s === 'offline' ? 'offline, retrying…' : 'disconnected'];
    else if (this.waiting) [state, text] = ['busy', 'loading…'];
    else if (this.pending) [state, text] = ['busy', 'updating…'];
    else text = this.updatedAt === null ? 'live' : `updated ${clock(this.updatedAt)}`;
    this.toolbar.setIndicator(state, text);
  }

  private renderWorkerError(): void {
    if (this.worker.status === 'error' && this.worker.error) this.showBanner(`The diff worker failed: ${this.worker.error}`);
  }

  private showBanner(text: string): void {
    this.banner.textContent = text;
    this.banner.hidden = false;
  }

  private fetchFull(path: string): Promise<DiffFile> {
    const url = `${this.ctx.api.workerPath(this.ctx.session.id, this.worker.id)}/diff?path=${encodeURIComponent(path)}`;
    return this.ctx.api.request<DiffFile>('GET', url);
  }

  /** j/k: next/previous file, o: collapse or expand it; not while typing. */
  private onKey(ev: KeyboardEvent): void {
    if (ev.altKey || ev.ctrlKey || ev.metaKey || ev.defaultPrevented) return;
    const t = ev.target as HTMLElement;
    if (t.closest('input, textarea, select, [contenteditable="true"]') !== null) return;
    if (ev.key === 'j') this.list.move(1);
    else if (ev.key === 'k') this.list.move(-1);
    else if (ev.key === 'o' && this.list.currentPath !== '') this.sections.toggle(this.list.currentPath);
    else return;
    ev.preventDefault();
  }
}

function clock(d: Date): string {
  const p = (n: number): string => String(n).padStart(2, '0');
  return `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}
