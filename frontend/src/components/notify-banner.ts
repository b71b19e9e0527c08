// "Get notified when Claude needs you? Enable": the only place that asks the
// browser for notification permission, and only when the user clicks Enable.
// Shown while the browser could ask (permission "default") and an agent worker
// exists; either answer, or ×, hides it for good (remembered in localStorage).
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
  private done = alreadyAsked();

  constructor() {
    const enable = h('button', { class: 'btn btn-small btn-primary', type: 'button', onClick: () => void this.enable() }, 'Enable');
    const close = h('button', { class: 'icon-btn', type: 'button', 'aria-label': 'Dismiss', title: 'Not now', onClick: () => this.dismiss() }, '×');
    this.el = h('div', { class: 'notify-banner', role: 'region', 'aria-label': 'Notifications', hidden: true },
      h('span', null, 'Get notified when Claude needs you?'), enable, close);
  }

  /** Shows the banner when it makes sense: agents exist and the browser has not been asked. */
  update(hasAgents: boolean): void {
    const askable = typeof Notification !== 'undefined' && Notification.permission === 'default';
    this.el.hidden = this.done || !askable || !hasAgents;
  }

  private async enable(): Promise<void> {
    this.dismiss();
    try {
      await Notification.requestPermission();
    } catch {
      // Refused or unsupported: nothing more to do, the sidebar marks still work.
    }
  }

  private dismiss(): void {
    this.done = true;
    rememberAsked();
    this.el.hidden = true;
  }
}
