// Why push cannot be turned on here, in a sentence that says what to do:
// the switch is never greyed out without one (issue 22, item 18). The
// checks follow what Web Push needs: a secure page, a service worker, the
// browser's PushManager, notifications allowed, and a push service the
// browser can reach.

/** Why this page cannot subscribe to push at all, or null when it can try. */
export function pushUnavailable(): string | null {
  if (!window.isSecureContext) {
    return 'Push needs a secure page: open agentdesk over https (or on localhost). See README → Push notifications.';
  }
  if (!('serviceWorker' in navigator) || navigator.serviceWorker === undefined) {
    return 'This browser runs no service worker here (a private window, or service workers are turned off), and push needs one.';
  }
  if (!('PushManager' in window)) {
    return 'This browser does not offer push here. On an iPhone or iPad, add agentdesk to the Home Screen and open it from there.';
  }
  if (typeof Notification === 'undefined') return 'This browser cannot show notifications, so push is off.';
  if (Notification.permission === 'denied') {
    return 'Notifications are blocked for this site: allow them in the browser’s site settings, then reload the page.';
  }
  return null;
}

/** A failed subscribe, said plainly: what the browser refused or could not reach. */
export function pushErrorText(err: unknown): string {
  const name = err instanceof DOMException ? err.name : '';
  const msg = err instanceof Error ? err.message : String(err);
  if (/push service/i.test(msg) || name === 'AbortError') {
    return `The browser could not reach its push service (${msg}). Some browsers have none (Chromium builds without Google services); another browser may work.`;
  }
  if (name === 'NotAllowedError') return `The browser refused push for this site (${msg}). Check its site settings for notifications.`;
  if (name === 'InvalidStateError' || /service ?worker/i.test(msg)) return `The service worker could not start (${msg}). Reload the page and try again.`;
  return msg;
}
