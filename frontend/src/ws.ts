// A WebSocket that reconnects by itself with capped, jittered exponential backoff.
// Owners pass the URL as a function so every attempt can carry fresh resume
// parameters (an offset, a message uuid), and get state changes for indicators.
// Single-threaded like everything in the page: no locking, but every timer and
// listener is released by dispose().

/**
 * connecting: first attempt in flight; open: connected; reconnecting: lost, retrying;
 * offline: several attempts failed (or the browser is offline), still retrying;
 * stopped: reconnection paused by the owner (stop()); closed: disposed.
 */
export type SocketState = 'connecting' | 'open' | 'reconnecting' | 'offline' | 'stopped' | 'closed';

export interface SocketOptions {
  /** Computed at every attempt, so it can include resume parameters. */
  url: () => string;
  binaryType?: BinaryType;
  onMessage: (data: string | ArrayBuffer) => void;
  /** Runs after each successful open, before any queued caller sends. */
  onOpen?: () => void;
  onState?: (state: SocketState) => void;
  /**
   * Runs when a connection ends (opened tells whether it was ever open). Return
   * false to stop reconnecting (the owner may call reconnectNow() later).
   */
  onClose?: (ev: CloseEvent, opened: boolean) => boolean | void;
  minDelayMs?: number;
  maxDelayMs?: number;
}

/** Failed attempts in a row after which the state reads "offline". */
const offlineAfter = 4;
/** A connection that lived this long resets the backoff. */
const stableMs = 3000;

/** Absolute ws(s):// URL for a path on this origin. */
export function wsUrl(path: string): string {
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${proto}//${location.host}${path}`;
}

/** Delay before retry number attempt (0-based): exponential, capped, half jitter. */
export function backoffDelay(attempt: number, minMs: number, maxMs: number): number {
  const exp = Math.min(maxMs, minMs * 2 ** Math.min(attempt, 20));
  return Math.round(exp / 2 + (Math.random() * exp) / 2);
}

export class ReconnectingSocket {
  private ws: WebSocket | null = null;
  private timer: number | undefined;
  private attempt = 0;
  private openedAt = 0;
  private current: SocketState = 'connecting';
  private readonly minMs: number;
  private readonly maxMs: number;
  private readonly onOnline = (): void => this.kick();
  private readonly onVisible = (): void => {
    if (document.visibilityState === 'visible') this.kick();
  };

  constructor(private readonly opts: SocketOptions) {
    this.minMs = opts.minDelayMs ?? 500;
    this.maxMs = opts.maxDelayMs ?? 10_000;
    window.addEventListener('online', this.onOnline);
    document.addEventListener('visibilitychange', this.onVisible);
    this.connect();
  }

  get state(): SocketState {
    return this.current;
  }

  get isOpen(): boolean {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN;
  }

  /** Sends a JSON value (or a string as is). Returns false when not connected. */
  send(value: unknown): boolean {
    if (!this.isOpen || this.ws === null) return false;
    this.ws.send(typeof value === 'string' ? value : JSON.stringify(value));
    return true;
  }

  /** Drops the current connection (if any) and connects again at once. */
  reconnectNow(): void {
    if (this.current === 'closed') return;
    this.clearTimer();
    this.attempt = 0;
    this.detach();
    this.connect();
  }

  /** Closes the connection and stops retrying until reconnectNow(). */
  stop(): void {
    if (this.current === 'closed') return;
    this.clearTimer();
    this.detach();
    this.setState('stopped');
  }

  dispose(): void {
    if (this.current === 'closed') return;
    this.clearTimer();
    this.detach();
    window.removeEventListener('online', this.onOnline);
    document.removeEventListener('visibilitychange', this.onVisible);
    this.setState('closed');
  }

  private connect(): void {
    if (this.current === 'stopped' || this.current === 'open') this.setState('reconnecting');
    let ws: WebSocket;
    try {
      ws = new WebSocket(this.opts.url());
    } catch {
      this.scheduleRetry();
      return;
    }
    ws.binaryType = this.opts.binaryType ?? 'arraybuffer';
    let opened = false;
    ws.onopen = () => {
      opened = true;
      this.openedAt = Date.now();
      this.setState('open');
      this.opts.onOpen?.();
    };
    ws.onmessage = (ev: MessageEvent<string | ArrayBuffer>) => this.opts.onMessage(ev.data);
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (opened && Date.now() - this.openedAt >= stableMs) this.attempt = 0;
      const keepGoing = this.opts.onClose?.(ev, opened);
      if (this.current === 'closed' || this.current === 'stopped') return;
      if (keepGoing === false) {
        this.setState('stopped');
        return;
      }
      this.scheduleRetry();
    };
    // onerror is always followed by onclose; nothing to do here.
    ws.onerror = () => {};
    this.ws = ws;
  }

  private scheduleRetry(): void {
    const delay = backoffDelay(this.attempt, this.minMs, this.maxMs);
    this.attempt++;
    const offline = this.attempt >= offlineAfter || navigator.onLine === false;
    this.setState(offline ? 'offline' : 'reconnecting');
    this.clearTimer();
    this.timer = window.setTimeout(() => {
      this.timer = undefined;
      this.connect();
    }, delay);
  }

  /** Retry now if waiting for a backoff timer (browser back online, tab visible again). */
  private kick(): void {
    if (this.timer === undefined) return;
    this.clearTimer();
    this.connect();
  }

  private detach(): void {
    const ws = this.ws;
    this.ws = null;
    if (ws === null) return;
    ws.onmessage = ws.onclose = ws.onerror = null;
    if (ws.readyState === WebSocket.OPEN) {
      ws.close(1000);
    } else if (ws.readyState === WebSocket.CONNECTING) {
      // Closing a socket still connecting logs a browser error; close it once open.
      ws.onopen = () => ws.close(1000);
    }
  }

  private clearTimer(): void {
    if (this.timer !== undefined) window.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private setState(s: SocketState): void {
    if (s === this.current) return;
    this.current = s;
    this.opts.onState?.(s);
  }
}
