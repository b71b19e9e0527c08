// The sdk worker socket: reconnects by itself, resuming after the last stored
// message it saw (?after=<uuid>), and hands each frame to the pane. The resume
// cursor moves with every stored line received, so a reconnect asks only for
// what is missing.
import { ReconnectingSocket, wsUrl, type SocketState } from '../../ws';
import type { Activity } from '../../types';
import { parseFrame, type ClientFrame, type CliMessage, type PermissionRequest } from './protocol';

export interface ChatHandlers {
  /** A connection opened: the replay after the cursor follows. */
  opened(): void;
  stored(msg: CliMessage, html: Record<string, string> | undefined): void;
  streamed(msg: CliMessage): void;
  historyEnd(): void;
  /** The server does not know our cursor: drop everything, the whole history follows. */
  reset(): void;
  activity(a: Activity): void;
  permission(req: PermissionRequest): void;
  resolved(requestId: string): void;
  exited(code: number | null, signal: string | number | null): void;
  error(code: string, message: string): void;
  state(s: SocketState): void;
}

export class ChatConnection {
  private socket: ReconnectingSocket | null = null;
  private last: string | null = null;
  private inReplay = true;

  constructor(private readonly path: string, private readonly on: ChatHandlers) {}

  /** Opens the socket (once). */
  start(): void {
    if (this.socket !== null) return;
    this.socket = new ReconnectingSocket({
      url: () => wsUrl(this.path + (this.last !== null ? `?after=${encodeURIComponent(this.last)}` : '')),
      onOpen: () => {
        this.inReplay = true;
        this.on.opened();
      },
      onMessage: (data) => this.onMessage(data),
      onState: (s) => this.on.state(s),
    });
    this.on.state(this.socket.state);
  }

  get started(): boolean {
    return this.socket !== null;
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
        if (typeof m.uuid === 'string' && m.uuid !== '') this.last = m.uuid;
        this.on.stored(m, f.html);
        return;
      }
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
      default:
        return; // a frame type added later: ignore
    }
  }
}
