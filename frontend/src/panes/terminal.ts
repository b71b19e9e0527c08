// Terminal pane for `terminal` and `pty-agent` workers: xterm.js fitted to the
// pane, fed by /ws/sessions/:sid/workers/:wid with offset-addressed binary frames,
// resumed with ?offset=<next> after any disconnect.
//
// xterm.js answers terminal queries (device attributes, kitty keyboard, OSC
// colours...) through onData as it parses them. Those answers are only wanted
// for live output: the replayed history's queries were answered long ago, and
// answering again would type garbage into the program. So input is held
// until the replay's history-end (and the replayed bytes are parsed), and
// whatever xterm emits while it parses replayed bytes is dropped. A stopped
// pty-agent worker (its conversation moved to another worker) is read-only.
// The header, the starting cover and the key bar are in term-chrome.ts, the
// exit line in term-banner.ts.
import { FitAddon } from '@xterm/addon-fit';
import { Terminal } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';
import { errorMessage } from '../api';
import { h } from '../dom';
import { isAgent, workerKind } from '../kinds';
import { activeTheme, onThemeChange } from '../theme';
import type { Session, TerminalFrame, Worker } from '../types';
import { ReconnectingSocket, wsUrl, type SocketState } from '../ws';
import { OutputCursor, parseOutputFrame } from './output-cursor';
import { readOnlyHint } from './read-only-hint';
import { registerPane, type Pane, type PaneContext } from './registry';
import { exitText, paneStatus, TermBanner, type ExitStatus } from './term-banner';
import { TermChrome } from './term-chrome';
import { terminalOptions, terminalTheme } from './terminal-theme';

/** Input typed before the socket opens is kept up to this many characters. */
const maxPending = 4096;
const droppedLine = '\x1b[2m[older output dropped]\x1b[22m\r\n';

class TerminalPane implements Pane {
  readonly el: HTMLElement;
  private readonly host: HTMLElement;
  private readonly hintId: string;
  private readonly chrome: TermChrome;
  private readonly banner = new TermBanner();
  private readonly term = new Terminal(terminalOptions(activeTheme()));
  private readonly unsubscribeTheme: () => void;
  private readonly fit = new FitAddon();
  private readonly cursor = new OutputCursor();
  private socket: ReconnectingSocket | null = null;
  private resizeObs: ResizeObserver | null = null;
  private fitFrame = 0;
  private visible = false;
  private replaying = true;
  /** Replayed chunks handed to xterm and not parsed yet: onData meanwhile is an automatic reply. */
  private replayWrites = 0;
  private exited = false;
  private pending = '';
  private lastExit: ExitStatus = { code: null, signal: null };
  private worker: Worker;
  private session: Session;

  constructor(private readonly ctx: PaneContext) {
    this.worker = ctx.worker;
    this.session = ctx.session;
    this.chrome = new TermChrome(ctx.worker, {
      send: (data) => this.typed(data),
      appCursor: () => this.term.modes.applicationCursorKeysMode,
      focus: () => this.term.focus(),
    });
    // Every key goes to the program, Tab and Shift+Tab too: the way out is
    // said to screen readers, as the description of the terminal.
    const hint = h('p', { class: 'sr-only', id: `term-hint-${ctx.worker.id}` },
      'Keys go to the program, Tab and Shift+Tab too. Alt+S moves to the session list, Alt+P back here, Alt+1 to Alt+9 to another tab.');
    this.hintId = hint.id;
    this.host = h('div', { class: 'term-host', role: 'region', 'aria-label': 'Terminal', 'aria-describedby': hint.id });
    this.el = h('div', { class: 'pane pane-terminal', hidden: true },
      this.chrome.bar, h('div', { class: 'term-body' }, this.host, this.chrome.cover), this.banner.el, this.chrome.keybar.el, hint);
    this.el.dataset.workerId = ctx.worker.id;
    this.term.loadAddon(this.fit);
    this.term.onData((data) => this.input(this.chrome.keybar.transform(data)));
    this.term.onBinary((data) => this.input(data));
    this.unsubscribeTheme = onThemeChange((t) => (this.term.options.theme = terminalTheme(t)));
    this.term.onResize(({ cols, rows }) => this.socket?.send({ type: 'resize', cols, rows }));
    if (ctx.worker.status === 'exited') this.showExit(ctx.worker.exitCode, null);
    this.applyReadOnly();
  }

  /** Whether this worker no longer takes input: a stopped agent, kept to read its history. */
  private get readOnly(): boolean {
    return isAgent(this.worker) && this.worker.status === 'stopped';
  }

  private applyReadOnly(): void {
    if (!this.readOnly) return;
    this.chrome.setReadOnly(true);
    this.chrome.started();
    this.term.options.disableStdin = true;
    this.el.dataset.readonly = 'true';
    this.banner.show(`Stopped (read-only). ${readOnlyHint(this.worker, this.session)}`);
  }

  show(): void {
    this.visible = true;
    this.el.hidden = false;
    if (this.resizeObs === null) this.openTerminal();
    this.maybeConnect();
    this.scheduleFit();
  }

  hide(): void {
    this.visible = false;
    this.el.hidden = true;
  }

  focus(): void {
    this.term.focus();
  }

  update(worker: Worker, session: Session): void {
    const before = this.worker.status;
    this.worker = worker;
    this.session = session;
    this.applyReadOnly();
    if (this.resizeObs !== null) this.maybeConnect();
    if (worker.status === 'exited') {
      if (!this.exited) this.showExit(worker.exitCode, null);
      else this.renderBanner(); // the error text may have changed
    } else if (this.exited && worker.status === 'running' && before !== 'running') {
      // Restarted (here or in another tab): follow the new output.
      this.clearExit();
      this.socket?.reconnectNow();
    }
  }

  dispose(): void {
    this.unsubscribeTheme();
    cancelAnimationFrame(this.fitFrame);
    this.resizeObs?.disconnect();
    this.socket?.dispose();
    this.term.dispose();
    this.el.remove();
  }

  /** Opens xterm; the element must be in the document. */
  private openTerminal(): void {
    this.term.open(this.host);
    this.term.textarea?.setAttribute('aria-describedby', this.hintId); // what takes the focus
    this.resizeObs = new ResizeObserver(() => this.scheduleFit());
    this.resizeObs.observe(this.host);
    this.setStatus('starting…', 'connecting');
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
      url: () => wsUrl(path + this.cursor.query()),
      binaryType: 'arraybuffer',
      onOpen: () => {
        // Typing waits for this replay's history-end (see the file comment).
        this.replaying = true;
        if (!this.readOnly) this.socket?.send({ type: 'resize', cols: this.term.cols, rows: this.term.rows });
      },
      onMessage: (data) => this.onMessage(data),
      onState: (s) => this.renderState(s),
      // After an exit the server may close the stream: wait for a restart instead of retrying.
      // A stopped agent's history does not change any more either.
      onClose: () => !this.exited && !(this.readOnly && !this.replaying),
    });
    this.renderState(this.socket.state);
  }

  /**
   * Sends typed input. What xterm emits while parsing replayed bytes is its
   * automatic answer to old queries: dropped. Until the replay has ended,
   * input is kept (bounded) and sent then.
   */
  private input(data: string): void {
    if (this.replayWrites > 0) return;
    this.typed(data);
  }

  /** Sends what the person typed (the keyboard or the key bar), or keeps it until the replay ended. */
  private typed(data: string): void {
    if (this.readOnly) return;
    if (!this.replaying && this.socket?.send({ type: 'input', data })) return;
    if (this.exited || this.pending.length + data.length > maxPending) return;
    this.pending += data;
  }

  /** The replay ended and xterm parsed all of it: send what was typed meanwhile. */
  private inputReady(): void {
    if (this.replaying || this.pending === '') return;
    if (this.socket?.send({ type: 'input', data: this.pending })) this.pending = '';
  }

  private onMessage(data: string | ArrayBuffer): void {
    if (typeof data !== 'string') {
      const frame = parseOutputFrame(data);
      if (frame === null) return;
      const fresh = this.cursor.accept(frame.start, frame.bytes);
      if (fresh.length === 0) return;
      if (this.replaying) {
        this.replayWrites++;
        this.term.write(fresh, () => {
          this.replayWrites--;
          this.checkStarted();
        });
      } else {
        this.term.write(fresh, this.chrome.starting ? () => this.checkStarted() : undefined);
      }
      return;
    }
    let f: TerminalFrame;
    try {
      f = JSON.parse(data) as TerminalFrame;
    } catch {
      return;
    }
    this.onFrame(f);
  }

  private onFrame(f: TerminalFrame): void {
    switch (f.type) {
      case 'truncated':
        this.term.write(droppedLine);
        this.cursor.truncated(f.offset);
        break;
      case 'history-end':
        if (!this.cursor.historyEnd(f.offset)) {
          // The server's log restarted below what we showed: start over on it.
          this.term.write('\r\n');
          this.cursor.reset();
          this.socket?.reconnectNow();
          return;
        }
        this.replaying = false;
        // Writes are parsed in order: this runs once every replayed byte was.
        this.term.write('', () => this.inputReady());
        this.renderState(this.socket?.state ?? 'open');
        break;
      case 'exit':
        this.showExit(f.exitCode, f.signal);
        break;
      case 'error':
        // e.g. the program could not start: say it in the banner, where there is room.
        this.chrome.started();
        this.setStatus('error', 'error');
        this.banner.show(f.message);
        break;
      default:
        break; // activity reaches the app through /ws/app
    }
  }

  private renderState(s: SocketState): void {
    const [text, state] = paneStatus(s, this.exited, this.readOnly, this.replaying);
    this.setStatus(text, state);
  }

  private setStatus(text: string, state: string): void {
    this.chrome.setStatus(text, state);
  }

  private checkStarted(): void {
    this.chrome.checkStarted(this.term);
  }

  private showExit(code: number | null, signal: string | number | null): void {
    this.chrome.started();
    this.exited = true;
    this.lastExit = { code, signal };
    this.renderBanner();
    this.renderState(this.socket?.state ?? 'stopped');
  }

  private renderBanner(): void {
    const restart = workerKind(this.worker).restartable ? () => void this.restart() : undefined;
    this.banner.show(exitText(this.lastExit, this.worker), restart);
  }

  private clearExit(): void {
    this.exited = false;
    this.banner.clear();
  }

  private async restart(): Promise<void> {
    try {
      const w = await this.ctx.api.restartWorker(this.ctx.session.id, this.worker.id);
      this.worker = w;
      this.clearExit();
      this.term.write('\r\n');
      this.socket?.reconnectNow();
      this.term.focus();
    } catch (err) {
      this.setStatus('restart failed', 'error');
      this.banner.show(`Could not restart the terminal: ${errorMessage(err)}`);
    }
  }

  private scheduleFit(): void {
    cancelAnimationFrame(this.fitFrame);
    this.fitFrame = requestAnimationFrame(() => {
      if (!this.visible || this.host.clientWidth === 0 || this.host.clientHeight === 0) return;
      this.fit.fit();
    });
  }
}

// The view of every PTY kind (kinds.ts: a shell, Claude's terminal UI).
registerPane('terminal', (ctx: PaneContext): Pane => new TerminalPane(ctx));
