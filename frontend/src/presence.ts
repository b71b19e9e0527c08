// Tells the server which session this tab shows while it is visible, with
// /ws/app "viewing" frames (docs/api-extensions.md, "Web Push"): the
// server pushes no notification for a session some visible tab shows.
// Also routes this tab when the service worker asks it to open a session
// (a tapped push notification, frontend/sw.js).

export class Presence {
  /** What the server was last told on this connection; undefined: nothing yet. */
  private told: string | null | undefined;
  private readonly onVisible = (): void => this.update();
  private readonly onMessage = (ev: MessageEvent): void => {
    const m = ev.data as { type?: unknown; url?: unknown } | null;
    if (m !== null && typeof m === 'object' && m.type === 'open' && typeof m.url === 'string' && m.url.startsWith('/')) this.open(m.url);
  };

  constructor(
    private readonly send: (frame: unknown) => boolean,
    private readonly currentSid: () => string | null,
    private readonly open: (path: string) => void,
  ) {
    document.addEventListener('visibilitychange', this.onVisible);
    if ('serviceWorker' in navigator) navigator.serviceWorker.addEventListener('message', this.onMessage);
  }

  /** A new connection knows nothing: tell it again. */
  connected(): void {
    this.told = undefined;
    this.update();
  }

  /** Sends a viewing frame when what this tab shows changed. */
  update(): void {
    const sid = document.visibilityState === 'visible' ? this.currentSid() : null;
    if (sid === this.told) return;
    this.told = this.send({ type: 'viewing', sessionId: sid }) ? sid : undefined;
  }

  dispose(): void {
    document.removeEventListener('visibilitychange', this.onVisible);
    if ('serviceWorker' in navigator) navigator.serviceWorker.removeEventListener('message', this.onMessage);
  }
}
