// The "Push notifications" switch in the inbox panel: on asks the browser
// for permission, subscribes with the server's VAPID key and stores the
// subscription (POST /api/push/subscriptions); off deletes it and
// unsubscribes. Push needs a secure context, a service worker, the
// browser's push service and notifications allowed; whenever the switch is
// greyed out, the note under it says why (push-reason.ts), and while it
// waits for the browser it says for what.
import { ApiError, type Api } from '../api';
import { h } from '../dom';
import { pushErrorText, pushUnavailable } from './push-reason';
import '../styles/push.css';

let nextNote = 0;

function keyBytes(b64url: string): Uint8Array<ArrayBuffer> {
  const b64 = b64url.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (b64url.length % 4)) % 4);
  const raw = atob(b64);
  const out = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

/** Whether a subscription's applicationServerKey is the server's key (unknown counts as the same). */
function sameKey(key: ArrayBuffer | null, b64url: string): boolean {
  if (key === null) return true;
  const want = keyBytes(b64url);
  const got = new Uint8Array(key);
  return got.length === want.length && got.every((b, i) => b === want[i]);
}

async function registration(): Promise<ServiceWorkerRegistration> {
  // pwa.ts registers late (after load, when idle); registering again is a no-op.
  await navigator.serviceWorker.register('/sw.js', { scope: '/' });
  return navigator.serviceWorker.ready;
}

export class PushToggle {
  readonly el: HTMLElement;
  private readonly sw: HTMLButtonElement;
  private readonly note: HTMLElement;

  constructor(private readonly api: Api) {
    this.sw = h('button', { class: 'push-switch', type: 'button', role: 'switch', 'aria-checked': 'false', onClick: () => void this.flip() },
      h('span', { class: 'push-label' }, 'Push notifications'), h('span', { class: 'push-knob', 'aria-hidden': 'true' }));
    this.note = h('p', { class: 'muted push-note', role: 'status', id: `push-note-${++nextNote}` });
    this.sw.setAttribute('aria-describedby', this.note.id);
    this.el = h('div', { class: 'push-toggle' }, this.sw, this.note);
    void this.init();
  }

  private set(on: boolean, note = ''): void {
    this.sw.setAttribute('aria-checked', on ? 'true' : 'false');
    this.note.textContent = note;
    this.note.hidden = note === '';
  }

  /** Shows the current state; a subscription this browser holds is stored again (the server may have dropped it). */
  private async init(): Promise<void> {
    const why = pushUnavailable();
    if (why !== null) {
      this.sw.disabled = true;
      this.set(false, why);
      return;
    }
    this.set(false);
    try {
      const reg = await navigator.serviceWorker.getRegistration('/');
      const sub = await reg?.pushManager.getSubscription();
      if (sub === null || sub === undefined || Notification.permission !== 'granted') return;
      const { publicKey } = await this.api.request<{ publicKey: string }>('GET', '/api/push/key');
      if (!sameKey(sub.options.applicationServerKey, publicKey)) {
        // The server has new keys (a new data dir): this subscription is dead.
        await this.api.request('DELETE', '/api/push/subscriptions', { endpoint: sub.endpoint }).catch(() => undefined);
        await sub.unsubscribe();
        this.set(false, 'The server’s push keys changed: turn push on again.');
        return;
      }
      await this.api.request('POST', '/api/push/subscriptions', sub.toJSON());
      this.set(true);
    } catch {
      // Shown as off; switching on tries again and says what failed.
    }
  }

  /**
   * Turns push on where the browser supports it, once notifications are
   * allowed elsewhere (the banner's Enable): one answer covers both.
   */
  async turnOn(): Promise<void> {
    if (pushUnavailable() !== null || this.sw.disabled || this.sw.getAttribute('aria-checked') === 'true') return;
    await this.flip();
  }

  private async flip(): Promise<void> {
    const on = this.sw.getAttribute('aria-checked') !== 'true';
    this.sw.disabled = true;
    try {
      if (on) await this.subscribe();
      else await this.unsubscribe();
    } catch (err) {
      this.set(!on, pushErrorText(err));
    } finally {
      // Blocked meanwhile (the person said no): greyed out, with the reason.
      const why = pushUnavailable();
      this.sw.disabled = why !== null;
      if (why !== null) this.set(false, why);
    }
  }

  /** Says what the switch waits for while it is greyed out. */
  private waiting(what: string): void {
    this.note.textContent = what;
    this.note.hidden = false;
  }

  private async subscribe(): Promise<void> {
    this.waiting('Waiting for the browser’s answer: allow notifications for this site.');
    if ((await Notification.requestPermission()) !== 'granted') {
      this.set(false, 'Notifications are not allowed for this site: allow them in the browser’s site settings to turn push on.');
      return;
    }
    const { publicKey } = await this.api.request<{ publicKey: string }>('GET', '/api/push/key');
    this.waiting('Starting the service worker…');
    const reg = await registration();
    this.waiting('Subscribing with the browser’s push service…');
    const opts = { userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) };
    let sub: PushSubscription;
    try {
      sub = await reg.pushManager.subscribe(opts);
    } catch (err) {
      // Subscribed before with other keys (a new data dir): start over.
      const old = await reg.pushManager.getSubscription();
      if (old === null) throw err;
      await old.unsubscribe();
      sub = await reg.pushManager.subscribe(opts);
    }
    await this.api.request('POST', '/api/push/subscriptions', sub.toJSON());
    this.set(true);
  }

  private async unsubscribe(): Promise<void> {
    this.waiting('Turning push off…');
    const reg = await navigator.serviceWorker.getRegistration('/');
    const sub = await reg?.pushManager.getSubscription();
    if (sub !== null && sub !== undefined) {
      await this.api.request('DELETE', '/api/push/subscriptions', { endpoint: sub.endpoint }).catch((err: unknown) => {
        if (!(err instanceof ApiError && err.status === 404)) throw err; // already gone
      });
      await sub.unsubscribe();
    }
    this.set(false);
  }
}
