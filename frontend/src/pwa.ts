// Registers the service worker (frontend/sw.js) that makes agentdesk an
// installable app. Browsers allow service workers on https and on http
// loopback (localhost, 127.0.0.1): elsewhere, and in the Vite dev server,
// nothing is registered and the app works as a plain page. Registration
// waits until a few seconds after the page loaded and the browser is idle:
// installing fetches the whole shell again, which must not compete with the
// first render of a long conversation (on a busy two-core machine that
// added a third to it).

/** Wait after the load event before registering (ms). */
const afterLoadMs = 5000;
/** Longest further wait for an idle moment before registering anyway (ms). */
const idleTimeoutMs = 10_000;

/** Registers once the page is loaded and idle; never throws. */
export function registerServiceWorker(): void {
  if (import.meta.env.DEV || !('serviceWorker' in navigator) || !window.isSecureContext) return;
  const register = (): void => {
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => {
      // Refused (a private window, a policy): the app runs uninstalled.
    });
  };
  const whenIdle = (): void => {
    window.setTimeout(() => {
      if (typeof requestIdleCallback === 'function') requestIdleCallback(register, { timeout: idleTimeoutMs });
      else register();
    }, afterLoadMs);
  };
  if (document.readyState === 'complete') whenIdle();
  else window.addEventListener('load', whenIdle, { once: true });
}
