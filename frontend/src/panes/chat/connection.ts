// The sdk worker socket: reconnects by itself, resuming after the last stored
// message it saw (?after=<uuid>), and hands each frame to the pane. The resume
// cursor moves with every stored line received, so a reconnect asks only for
// what is missing. The first connection is preceded by the newest page of
// the stored history read over REST (history.ts; older pages are the pane's,
// older.ts), so its replay is only what was stored since. An imported
// history comes as history-appended notices instead of messages: the
// connection then reads the newest page again and reconnects after it
// (refresh), so a tab open during an import shows the import's newest
// page, not thousands of messages one by one.
import { ReconnectingSocket, wsUrl, type SocketState } from '../../ws';
import type { Activity } from '../../types';
import { lastUuid, newestPageSize, readBack, readHistory, type FetchOlder, type FetchPage, type StoredMessage } from './history';
import type { QueueItem } from './queue-panel';
import { parseFrame, type ClientFrame, type CliMessage, type PermissionRequest } from './protocol';
import type { StopStage } from './stop-card';

export interface ChatHandlers {
  /** A connection opened: the replay after the cursor follows. */
  opened(): void;
  stored(msg: CliMessage, html: Record<string, string> | undefined): void;
  /** A page of stored history read over REST before the first connection, oldest first. */
  history(msgs: StoredMessage[]): void;
  /** The REST history is read (or was cut short); the socket opens next. */
  historyRead(): void;
  /** The uuid older pages are read before ('' none): the history read holds only the newest page. */
  older?(next: string): void;
  streamed(msg: CliMessage): void;
  historyEnd(): void;
  /** The server does not know our cursor: drop everything, the whole history follows. */
  reset(): void;
  /** count messages were stored and not sent (an import); the newest page is read again once it ends. */
  appended?(count: number): void;
  activity(a: Activity): void;
  /** How far a Stop got (stop-card.ts). */
  stopStage?(s: StopStage): void;
  permission(req: PermissionRequest): void;
  resolved(requestId: string): void;
  exited(code: number | null, signal: string | number | null): void;
  error(code: string, message: string): void;
  state(s: SocketState): void;
  /** The chat's queue changed (or is replayed after history-end). */
  queue(items: QueueItem[]): void;
}

export class ChatConnection {
  private socket: ReconnectingSocket | null = null;
  private last: string | null = null;
  private inReplay = true;
  private begun = false;
  private disposed = false;
  /** history-appended came: what is shown is not the newest page any more. */
  private stale = false;

  /**
   * fetchPage, when given, reads the stored history before the first
   * connection; with fetchOlder too, only its newest page is read (and
   * fetchPage reads it all when that read fails).
   */
  constructor(
    private readonly path: string,
    private readonly on: ChatHandlers,
    private readonly fetchPage?: FetchPage,
    private readonly fetchOlder?: FetchOlder,
  ) {}

  /** Reads the stored history (when it can) and opens the socket after it (once). */
  start(): void {
    if (this.begun) return;
    this.begun = true;
    this.on.state('connecting');
    if (this.fetchPage === undefined) {
      this.open();
      return;
    }
    void this.readNewest().then((last) => {
      if (this.disposed) return;
      if (last !== '') this.last = last;
      this.on.historyRead();
      this.open();
    });
  }

  /**
   * Reads the newest page (or, when that fails, the whole history) and
   * returns the cursor after it. With replace, what is shown is dropped
   * (on.reset) just before the first messages read are given.
   */
  private async readNewest(replace = false): Promise<string> {
    let fresh = replace;
    const give = (msgs: StoredMessage[]): void => {
      if (fresh) this.on.reset();
      fresh = false;
      this.on.history(msgs);
    };
    if (this.fetchOlder !== undefined) {
      const page = await readBack(this.fetchOlder, '', newestPageSize).catch(() => null);
      if (page !== null) {
        if (this.disposed) return '';
        give(page.messages);
        this.on.older?.(page.next);
        return lastUuid(page.messages) ?? '';
      }
    }
    if (this.fetchPage === undefined) return '';
    return readHistory(this.fetchPage, '', give, () => this.disposed);
  }

  /**
   * Shows the newest page after history-appended notices: closes the
   * socket, reads the page and reconnects after its last message, as at
   * the start, so nothing is lost or shown twice.
   */
  private refresh(): void {
    this.stale = false;
    this.socket?.dispose();
    this.socket = null;
    this.inReplay = true;
    this.on.state('connecting');
    const cursor = this.last;
    void this.readNewest(true).then((last) => {
      if (this.disposed) return;
      this.last = last !== '' ? last : cursor;
      this.on.historyRead();
      this.open();
    });
  }

  private open(): void {
    this.socket = new ReconnectingSocket({
      // notices=1: an import's messages come as history-appended notices
      // (read by page), not one frame each.
      url: () => wsUrl(this.path + '?notices=1' + (this.last !== null ? `&after=${encodeURIComponent(this.last)}` : '')),
      onOpen: () => {
        if (this.stale) {
          this.refresh(); // a reconnect after notices: the newest page instead of the rest
          return;
        }
        this.inReplay = true;
        this.on.opened();
      },
      onMessage: (data) => this.onMessage(data),
      onState: (s) => this.on.state(s),
    });
    this.on.state(this.socket.state);
  }

  get started(): boolean {
    return this.begun;
  }

  get isOpen(): boolean {
    return this.socket?.isOpen ?? false;
  }

  /** True from each open until its history-end. */
  get replaying(): boolean {
    return this.inReplay;
  }

  /** The uuid of the newest stored message received (the resume cursor). */
  get lastUuid(): string | null {
    return this.last;
  }

  send(f: ClientFrame): boolean {
    return this.socket?.send(f) ?? false;
  }

  dispose(): void {
    this.disposed = true;
    this.socket?.dispose();
  }

  private onMessage(data: string | ArrayBuffer): void {
    const f = parseFrame(data);
    if (f === null) return;
    switch (f.type) {
      case 'sdk-message': {
        const m = f.message;
        if (m.type === 'stream_event') {
          this.on.streamed(m);
          return;
        }
        if (this.stale) {
          this.refresh(); // the import ended: this message is in the page read, or after it
          return;
        }
        if (typeof m.uuid === 'string' && m.uuid !== '') this.last = m.uuid;
        this.on.stored(m, f.html);
        return;
      }
      case 'history-appended':
        if (typeof f.last === 'string' && f.last !== '') this.last = f.last;
        this.stale = true;
        this.on.appended?.(typeof f.count === 'number' ? f.count : 0);
        return;
      case 'history-end':
        if (typeof f.last === 'string' && f.last !== '') this.last = f.last;
        this.inReplay = false;
        this.on.historyEnd();
        return;
      case 'reset':
        this.last = null;
        this.on.reset();
        return;
      case 'activity':
        this.on.activity(f.state);
        return;
      case 'stop-stage':
        this.on.stopStage?.(f.stage);
        return;
      case 'permission-request':
        this.on.permission(f);
        return;
      case 'permission-resolved':
        this.on.resolved(f.requestId);
        return;
      case 'exit':
        this.on.exited(f.exitCode ?? null, f.signal ?? null);
        return;
      case 'error':
        this.on.error(f.code, f.message);
        return;
      case 'queue':
        this.on.queue(Array.isArray(f.items) ? f.items : []);
        return;
      default:
        return; // a frame type added later: ignore
    }
  }
}
