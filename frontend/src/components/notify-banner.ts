// "Get notified when an agent needs you? Enable": the only place that asks the
// browser for notification permission, and only when the user clicks Enable.
// Shown while the browser could ask (permission "default") and an agent worker
// exists. Allowed, or ×, hides it for good (remembered in localStorage); a
// refusal (by the person or by the browser itself) is said in the banner
// with what to do, until × dismisses it.
import { h } from '../dom';

const askedKey = 'agentdesk.notifications.asked';

function alreadyAsked(): boolean {
  try {
    return localStorage.getItem(askedKey) === '1';
  } catch {
    return false; // storage blocked: ask again next time, never more than once per page
  }
}

function rememberAsked(): void {
  try {
    localStorage.setItem(askedKey, '1');
  } catch {
    // storage blocked: the banner stays hidden for this page only
  }
}

export class NotifyBanner {
  readonly el: HTMLElement;
  private readonly text: HTMLElement;
  private readonly enableBtn: HTMLButtonElement;
  private done = alreadyAsked();
  /** The browser said no: the banner stays to say so until dismissed. */
  private refused = false;

  /** onGranted runs when the person allowed notifications here (push subscribes then). */
  constructor(private readonly onGranted: () => void = () => undefined) {
    this.text = h('span', { class: 'notify-text', role: 'status' }, 'Get notified when an agent needs you?');
    this.enableBtn = h('button', { class: 'btn btn-small btn-primary', type: 'button', title: 'Enable notifications', onClick: () => void this.enable() }, 'Enable');
    const close = h('button', { class: 'icon-btn', type: 'button', 'aria-label': 'Dismiss', title: 'Not now', onClick: () => this.dismiss() }, '×');
    this.el = h('div', { class: 'notify-banner', role: 'region', 'aria-label': 'Notifications', hidden: true },
      this.text, this.enableBtn, close);
  }

  /** Shows the banner when it makes sense: agents exist and the browser has not been asked. */
  update(hasAgents: boolean): void {
    if (this.refused) return;
    const askable = typeof Notification !== 'undefined' && Notification.permission === 'default';
    this.el.hidden = this.done || !askable || !hasAgents;
  }

  private async enable(): Promise<void> {
    this.enableBtn.disabled = true;
    let answer: NotificationPermission = 'denied';
    try {
      answer = await Notification.requestPermission();
    } catch {
      // Unsupported here: reported as refused.
    }
    this.enableBtn.disabled = false;
    if (answer === 'granted') {
      this.dismiss();
      this.onGranted();
      return;
    }
    this.refused = true;
    this.el.dataset.refused = 'true';
    if (answer === 'denied') {
      rememberAsked();
      this.done = true;
      this.enableBtn.hidden = true;
      this.text.textContent = 'The browser refused notifications for agentdesk. To get them, allow notifications for this site in the browser’s site settings (the icon left of the address), then reload.';
    } else {
      // "default": the prompt was closed (or blocked) without an answer; it may be asked again.
      this.text.textContent = 'The browser did not allow notifications: its prompt was closed without an answer. Try again, or allow them in the browser’s site settings.';
    }
  }

  private dismiss(): void {
    this.done = true;
    this.refused = false;
    rememberAsked();
    this.el.hidden = true;
  }
}
