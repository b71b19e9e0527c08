// The chat pane of an sdk worker: the conversation, pending permission
// requests, the composer and the connection state, fed by one ChatConnection.
// DOM work for incoming lines is batched per animation frame (render-loop.ts,
// Transcript), and the history read before the socket opens is built in
// back-to-back tasks. The controls around the conversation (bar, settings,
// usage, export, queue, composer, completion) are built in pane-chrome.ts.
import { h } from '../../dom';
import type { Activity, Session, Worker } from '../../types';
import type { SocketState } from '../../ws';
import { readOnlyHint } from '../read-only-hint';
import type { Pane, PaneContext } from '../registry';
import { FocusGroup } from '../../focus-group';
import { Banner } from './banner';
import type { OutAttachment } from './attach-tray';
import type { Composer } from './composer';
import { ChatConnection } from './connection';
import { ImportProgress } from './import-progress';
import { modesOf } from './modes';
import { CopyButtons } from './copy';
import { OlderPages, revealEvent, type RevealDetail } from './older';
import { Parking } from './park';
import { ChatChrome, messagesPath } from './pane-chrome';
import { PermissionDock } from './permission-dock';
import type { CliMessage, ClientFrame, PermissionRequest } from './protocol';
import { RenderLoop } from './render-loop';
import { Scroller } from './scroller';
import type { SettingsBar } from './settings-bar';
import { StopCard } from './stop-card';
import { setAsking } from './title-alert';
import { Transcript } from './transcript';
import { TodoPin, todosOf } from './tools/todo';
import { ToolDock } from '../../tools/dock';
import { limitContinue, limitSettings } from '../../tools/limit-card';
import { TurnStart } from './turn-start';
import { watchingReason, watchState } from './watch';

export class ChatPane implements Pane {
  readonly el: HTMLElement;
  private readonly transcript = new Transcript((chunk) => this.copies.observe(chunk), (input) => {
    const todos = todosOf(input);
    if (todos !== null) this.todos.set(todos);
  });
  /** The latest checklist, above the composer while a turn runs. */
  private readonly todos = new TodoPin();
  private readonly copies: CopyButtons;
  private readonly scroller: Scroller;
  /** The pages before the newest one, read as the person scrolls up (older.ts). */
  private readonly older: OlderPages;
  /** Chunks far from view leave the document (park.ts). */
  private readonly parking: Parking;
  private readonly dock: PermissionDock;
  /** Forms and links of agentdesk's own tools (ask_user, show). */
  private readonly toolDock: ToolDock;
  private readonly stopCard = new StopCard((force) => this.cancel(force));
  private readonly banner = new Banner();
  private readonly turnStart = new TurnStart();
  /** While an import's messages are stored (history-appended): how many so far. */
  private readonly importing = new ImportProgress();
  /** The bar, settings, usage, queue, composer and completion (pane-chrome.ts). */
  private readonly chrome: ChatChrome;
  private readonly composer: Composer;
  private readonly settings: SettingsBar;
  private readonly conn: ChatConnection;
  private readonly key: string;
  private worker: Worker;
  private visible = false;
  private readonly loop = new RenderLoop(this.transcript, () => {
    this.scroller.keep();
    // The buttons of what shows go in before the frame is painted: added
    // later, they would push the messages in view (a layout shift).
    if (this.copies.decorateInView()) this.scroller.keep();
    this.copies.refresh();
    this.older.maybeLoad();
  });
  private sweepOnActivity = false;
  private socketState: SocketState = 'connecting';
  /** The worker's stored error the banner was last given, if any. */
  private statusError: string | null = null;
  /** Another claude process writes the conversation (watch.ts). */
  private watching = false;
  /** The session as last seen (the read-only hint names its live tab). */
  private session: Session;

  constructor(private readonly ctx: PaneContext) {
    this.worker = ctx.worker;
    this.session = ctx.session;
    this.key = `${ctx.session.id}/${ctx.worker.id}`;
    const content = h('div', { class: 'chat-content' });
    this.scroller = new Scroller(content);
    const path = messagesPath(ctx);
    this.older = new OlderPages({
      transcript: this.transcript,
      scroller: this.scroller.el,
      fetch: (before, limit) => ctx.api.request('GET', `${path}?before=${encodeURIComponent(before)}&limit=${limit}`),
      onChunk: (chunk) => this.copies.observe(chunk),
      render: () => this.loop.schedule(),
      inserted: () => {
        this.copies.decorateInView();
        this.copies.refresh();
      },
    });
    content.append(this.older.el, this.transcript.el, this.importing.el, this.turnStart.el);
    this.parking = new Parking(this.transcript.el, this.scroller.el);
    this.dock = new PermissionDock((f) => this.conn.send(f), () => this.composer.focus(), modesOf(ctx.worker.agent).owner);
    this.toolDock = new ToolDock(ctx.session.id);
    this.chrome = new ChatChrome(ctx, this.banner, { send: (text, when, files) => this.sendMessage(text, when, files), cancel: () => this.cancel() }, () => this.worker);
    this.composer = this.chrome.composer;
    this.settings = this.chrome.settings;
    this.el = h('div', { class: 'pane pane-chat', hidden: true },
      this.chrome.bar,
      this.banner.el, this.chrome.usage.notice,
      h('div', { class: 'chat-main' }, this.scroller.el, this.scroller.jump),
      this.stopCard.el,
      this.dock.el,
      this.toolDock.el,
      this.todos.el,
      this.chrome.queue.el,
      this.composer.el);
    this.el.dataset.workerId = ctx.worker.id;
    this.composer.tray.listen(this.composer.input, this.el);
    this.copies = new CopyButtons(this.scroller.el, this.el);
    // The messages' buttons, links and code are one Tab stop (focus-group.ts).
    this.el.append(new FocusGroup(this.scroller.el,
      'Tab enters the messages’ buttons, links and code at the newest; the arrow keys move between them; Tab leaves them.').hint);
    // Busy until the first history-end: the history read first is no news to announce.
    this.transcript.el.setAttribute('aria-busy', 'true');
    this.el.addEventListener('keydown', (ev) => this.onKey(ev));
    this.el.addEventListener(limitContinue, () => void this.sendMessage('Continue.'));
    this.el.addEventListener(limitSettings, () => this.chrome.agent.open(true));
    window.addEventListener(revealEvent, this.onReveal);
    const wsPath = `/ws/sessions/${encodeURIComponent(ctx.session.id)}/workers/${encodeURIComponent(ctx.worker.id)}`;
    this.conn = new ChatConnection(wsPath, {
      opened: () => this.opened(),
      stored: (m, html) => {
        this.noteWatch([m]);
        this.turnStart.stored(m);
        if (m.type === 'result') void this.chrome.usage.refresh();
        this.settings.observe(m);
        if (this.transcript.add(m, html)) this.schedule();
      },
      history: (msgs) => {
        this.noteWatch(msgs.map((s) => s.message));
        for (const x of msgs) this.settings.observe(x.message);
        if (this.transcript.addHistory(msgs)) this.schedule();
      },
      historyRead: () => {
        this.transcript.endHistory();
        this.schedule();
      },
      older: (next) => this.older.setNext(next),
      streamed: (m) => {
        this.turnStart.streamed(m);
        this.transcript.addEvent(m);
        this.schedule();
      },
      historyEnd: () => this.historyEnd(),
      reset: () => {
        this.importing.done();
        this.older.clear();
        this.transcript.clear();
        this.copies.clear();
        this.todos.clear();
      },
      appended: (count) => {
        this.importing.add(count);
        this.scroller.keep();
      },
      activity: (a) => this.setActivity(a),
      stopStage: (s) => this.stopCard.setStage(s),
      permission: (req) => this.permission(req),
      resolved: (id) => this.dock.resolve(id),
      exited: (code, signal) => this.exited(code, signal),
      error: (code, message) => this.error(code, message),
      state: (s) => this.setSocketState(s),
      queue: (items) => this.chrome.queue.set(items),
    }, (after, limit) => ctx.api.request('GET', `${path}?limit=${limit}&after=${encodeURIComponent(after)}`),
    (before, limit) => ctx.api.request('GET', `${path}?before=${encodeURIComponent(before)}&limit=${limit}`));
    this.setActivity(ctx.worker.activity);
    this.applyWorker();
    this.setSocketState('connecting');
  }

  show(): void {
    this.visible = true;
    this.el.hidden = false;
    this.maybeConnect();
    this.scroller.restoreView();
    this.schedule();
  }

  hide(): void {
    this.scroller.saveView();
    this.visible = false;
    this.el.hidden = true;
  }

  cycleMode(): void {
    this.settings.cycleMode();
  }

  focus(): void {
    if (!this.dock.focusFirst()) this.composer.focus();
  }

  update(worker: Worker, session: Session): void {
    this.worker = worker;
    this.session = session;
    this.settings.update(worker, session);
    this.applyWorker();
    if (!this.conn.isOpen) this.setActivity(worker.activity); // the socket's frames win while open
    if (this.visible) this.maybeConnect();
  }

  dispose(): void {
    window.removeEventListener(revealEvent, this.onReveal);
    this.older.dispose();
    this.parking.dispose();
    this.toolDock.dispose();
    this.loop.dispose();
    this.copies.dispose();
    this.chrome.dispose();
    this.conn.dispose();
    this.scroller.dispose();
    setAsking(this.key, false);
    this.el.remove();
  }

  /**
   * Opens the worker socket. A worker that is still starting is fine: the
   * server holds the upgrade until its runtime is ready.
   */
  private maybeConnect(): void {
    if (!this.conn.started) this.conn.start();
  }

  /** Follows the notes that another process started or stopped writing the conversation. */
  private noteWatch(msgs: CliMessage[]): void {
    let state: boolean | null = null;
    for (const m of msgs) state = watchState(m) ?? state;
    if (state === null || state === this.watching) return;
    this.watching = state;
    this.applyWorker();
  }

  private applyWorker(): void {
    const w = this.worker;
    this.el.dataset.status = w.status;
    this.composer.setReadOnly(w.status === 'stopped'
      ? readOnlyHint(w, this.session)
      : this.watching ? watchingReason : null);
    // The worker keeps its error (a CLI that could not start) until a
    // start succeeds: a tab opened later shows it too.
    const err = w.status === 'error' ? w.error : null;
    if (err !== null && err !== this.statusError && !this.banner.shows(err)) this.banner.show('worker_error', err);
    else if (err === null && this.statusError !== null && this.banner.shows(this.statusError)) this.banner.hide();
    this.statusError = err;
  }

  private opened(): void {
    // The replay repeats the running message's stream events and the pending requests.
    this.transcript.dropLive();
    this.dock.markStale();
    this.chrome.queue.clear(); // the replay sends the queue again when it has items
    this.transcript.el.setAttribute('aria-busy', 'true');
    this.renderConn();
  }

  private historyEnd(): void {
    this.settings.historyEnd();
    this.transcript.el.setAttribute('aria-busy', 'false');
    this.older.arm();
    // Pending requests and the activity follow history-end; the activity comes last.
    this.sweepOnActivity = true;
    this.renderConn();
  }

  /** Sends what the composer holds: back to the bottom, and "turn started" until the first token. */
  private sendMessage(text: string, when?: 'now' | 'queue', attachments?: OutAttachment[]): boolean {
    const busy = this.composer.busy;
    const frame: ClientFrame = { type: 'user-message', content: text, ...(when !== undefined ? { when } : {}), ...(attachments !== undefined ? { attachments } : {}) };
    if (!this.conn.send(frame)) return false;
    this.scroller.stick();
    if (!busy) this.turnStart.sent(); // a message sent mid-turn waits for the turn to end
    return true;
  }

  private setActivity(a: Activity | null): void {
    this.turnStart.activity(a);
    this.todos.setRunning(a !== null && a !== 'idle');
    if (this.sweepOnActivity && a !== null) {
      this.sweepOnActivity = false;
      this.dock.sweepStale();
    }
    this.el.dataset.activity = a ?? '';
    this.composer.setActivity(a);
    this.stopCard.setActivity(a);
    setAsking(this.key, a === 'asking');
  }

  private permission(req: PermissionRequest): void {
    this.turnStart.done();
    const active = document.activeElement;
    const typing = active === this.composer.input && this.composer.input.value !== '';
    const free = active === null || active === document.body || this.el.contains(active);
    this.dock.add(req, this.visible && free && !typing);
  }

  private exited(code: number | null, signal: string | number | null): void {
    const agent = modesOf(this.ctx.worker.agent).owner;
    let what = `The ${agent} process ended`;
    if (signal !== null && signal !== '') what = `The ${agent} process was killed by signal ${signal}`;
    else if (code !== null && code !== 0) what = `The ${agent} process exited with code ${code}`;
    this.turnStart.done();
    this.transcript.endWithNote(`${what}.`, 'chat-exit');
    this.schedule();
  }

  private error(code: string, message: string): void {
    this.turnStart.done();
    this.banner.show(code, message);
    if (code === 'invalid_message') this.dock.unbusyAll(message);
  }

  private cancel(force = false): void {
    if (!this.conn.send(force ? { type: 'cancel', force } : { type: 'cancel' })) {
      void this.ctx.api.cancel(this.ctx.session.id, this.worker.id, force).catch(() => undefined);
    }
  }

  private onKey(ev: KeyboardEvent): void {
    if (ev.key !== 'Escape' || !this.composer.busy || ev.defaultPrevented) return;
    if (ev.target instanceof Node && this.dock.el.contains(ev.target)) return;
    ev.preventDefault();
    this.cancel();
  }

  private setSocketState(s: SocketState): void {
    this.socketState = s;
    this.composer.setConnected(s === 'open');
    this.renderConn();
  }

  private renderConn(): void {
    this.el.dataset.conn = this.chrome.renderConn(this.socketState, this.conn.replaying);
  }

  /** A search hit in this chat: read older pages until it is shown (search-palette.ts reveals it). */
  private readonly onReveal = (ev: Event): void => {
    const d = (ev as CustomEvent<RevealDetail>).detail;
    if (d.sid !== this.ctx.session.id || (d.wid === '' ? !this.visible : d.wid !== this.worker.id)) return;
    this.older.want(d.uuid);
  };

  /** Renders what the transcript queued (render-loop.ts). */
  private schedule(): void {
    this.loop.schedule();
  }
}
