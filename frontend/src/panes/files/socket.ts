// The files worker's socket: it names the folders the tree shows
// ({"type":"watch","paths"}) and hands on which of them changed. After a
// (re)connect the server's fs-watching lists the folders it now watches,
// which are reloaded: they may have changed while the socket was away.
import { ReconnectingSocket, wsUrl, type SocketState } from '../../ws';

export interface FsSocketEvents {
  changed(folders: string[]): void;
  state(s: SocketState): void;
}

export class FsSocket {
  private readonly socket: ReconnectingSocket;
  private folders: string[] = [];
  private sent = '';
  /** The connection is new: its first fs-watching asks for a reload. */
  private fresh = false;

  constructor(path: string, on: FsSocketEvents) {
    this.socket = new ReconnectingSocket({
      url: () => wsUrl(path),
      onOpen: () => {
        this.sent = '';
        this.fresh = true;
        this.flush();
      },
      onMessage: (data) => {
        if (typeof data !== 'string') return;
        let f: { type?: unknown; paths?: unknown };
        try {
          f = JSON.parse(data) as typeof f;
        } catch {
          return;
        }
        const paths = Array.isArray(f.paths) ? f.paths.filter((p): p is string => typeof p === 'string') : [];
        if (paths.length === 0) return;
        if (f.type === 'fs-changed') on.changed(paths);
        if (f.type === 'fs-watching' && this.fresh) {
          this.fresh = false;
          on.changed(paths);
        }
      },
      onState: (s) => on.state(s),
    });
  }

  /** The folders the tree shows now. */
  watch(folders: string[]): void {
    this.folders = [...folders].sort();
    this.flush();
  }

  private flush(): void {
    const key = this.folders.join('\n');
    if (key === this.sent || !this.socket.isOpen) return;
    if (this.socket.send({ type: 'watch', paths: this.folders })) this.sent = key;
  }

  get state(): SocketState {
    return this.socket.state;
  }

  dispose(): void {
    this.socket.dispose();
  }
}
