// Registers the service worker (frontend/sw.js) that makes agentdesk an
// installable app. Browsers allow service workers on https and on http
// loopback (localhost, 127.0.0.1): elsewhere, and in the Vite dev server,
// nothing is registered and the app works as a plain page.

/** Resolves when the worker is registered (or nothing was to be done); never rejects. */
export async function registerServiceWorker(): Promise<void> {
  if (import.meta.env.DEV || !('serviceWorker' in navigator) || !window.isSecureContext) return;
  try {
    await navigator.serviceWorker.register('/sw.js', { scope: '/' });
  } catch {
    // Refused (a private window, a policy): the app runs uninstalled.
  }
}
