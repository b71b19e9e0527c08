// agentdesk's service worker: the template of the built dist/sw.js (the
// Vite build fills in SHELL and VERSION, see vite.config.ts). It makes the
// app installable and lets it open when the server cannot be reached: the
// app shell (the page, its scripts and styles, icons, manifest) is cached
// at install, and served from that cache when the server is unreachable. Nothing
// else is cached: /api and /ws answers always come from the network and are
// never stored. The page itself is fetched from the network first (it
// carries the sign-in result).
// A new build has a new VERSION: it installs, takes over and drops the old
// cache.

/** Paths of the app shell. */
const SHELL = /*SHELL*/ ['/'];
const VERSION = /*VERSION*/ 'dev';
const PREFIX = 'agentdesk-shell-';
const CACHE = PREFIX + VERSION;

self.addEventListener('install', () => {
  void self.skipWaiting();
});

// The shell is stored at activation, not at install: Chrome compiles every
// script stored during install at once to keep its code cache, a third of a
// second of CPU that would compete with the page's first render.
self.addEventListener('activate', (ev) => {
  ev.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await Promise.all(SHELL.map(async (p) => {
      const res = await fetch(p, { cache: 'no-cache' });
      if (res.ok) await cache.put(p, res);
    }));
    const old = (await caches.keys()).filter((k) => k.startsWith(PREFIX) && k !== CACHE);
    await Promise.all(old.map((k) => caches.delete(k)));
    await self.clients.claim();
  })());
});

/** True for what must never come from, or go into, the cache. */
function isLive(pathname) {
  return pathname === '/api' || pathname === '/ws' || pathname.startsWith('/api/') || pathname.startsWith('/ws/');
}

// Whether the last page load found the server unreachable. While it did,
// the shell's files come from the cache; otherwise the worker stays out of
// their way: a script answered by a service worker is compiled on the main
// thread instead of streamed, which cost a long conversation's first render
// a third more time.
let unreachable = false;

self.addEventListener('fetch', (ev) => {
  const req = ev.request;
  if (req.method !== 'GET') return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin || isLive(url.pathname)) return;
  if (req.mode === 'navigate') {
    ev.respondWith(fetch(req).then((res) => {
      unreachable = false;
      return res;
    }, async () => {
      unreachable = true;
      return (await caches.match('/', { cacheName: CACHE })) ?? Response.error();
    }));
    return;
  }
  if (!unreachable || !SHELL.includes(url.pathname)) return;
  ev.respondWith(caches.match(req, { cacheName: CACHE }).then((hit) => hit ?? fetch(req)));
});

// Web Push (docs/api-extensions.md, "Web Push"): the server pushes when a
// worker starts waiting for the user or a turn ends and no tab shows that
// session. The payload is {title, body, url, tag, sessionId, workerId,
// kind, requestId?, actions?}; the tag is the worker's, so a newer push
// (or the page's own notification) replaces an older one.
self.addEventListener('push', (ev) => {
  let d = {};
  try {
    d = ev.data ? ev.data.json() : {};
  } catch {
    d = { body: ev.data ? ev.data.text() : '' };
  }
  const waits = d.kind === 'permission' || d.kind === 'question' || d.kind === 'plan';
  const max = (self.Notification && self.Notification.maxActions) || 0;
  const opts = {
    body: typeof d.body === 'string' ? d.body : '',
    data: d,
    icon: '/icons/icon-192.png',
    requireInteraction: waits,
    actions: Array.isArray(d.actions) ? d.actions.slice(0, max) : [],
  };
  if (typeof d.tag === 'string' && d.tag !== '') Object.assign(opts, { tag: d.tag, renotify: true });
  ev.waitUntil(self.registration.showNotification(typeof d.title === 'string' && d.title !== '' ? d.title : 'agentdesk', opts));
});

self.addEventListener('notificationclick', (ev) => {
  ev.waitUntil(notificationClicked(ev.notification, ev.action));
});

// A tapped notification: Allow or Deny answers the permission with the
// signed-in cookie (same-origin fetch); anything else, or an answer the
// server refuses (already answered, signed out), opens the session.
async function notificationClicked(n, action) {
  const d = n.data || {};
  n.close();
  if ((action === 'allow' || action === 'deny') && d.requestId) {
    const enc = encodeURIComponent;
    const path = `/api/sessions/${enc(d.sessionId)}/workers/${enc(d.workerId)}/permissions/${enc(d.requestId)}`;
    const body = action === 'allow' ? { behavior: 'allow' } : { behavior: 'deny', message: 'Denied from a notification' };
    try {
      const res = await fetch(path, { method: 'POST', credentials: 'same-origin', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      if (res.ok) return;
    } catch {
      // Offline: open the session instead.
    }
  }
  await openSession(typeof d.url === 'string' && d.url.startsWith('/') ? d.url : '/');
}

// Focuses an open agentdesk tab and tells it to show url (the app routes
// without reloading), or opens a new window there.
async function openSession(url) {
  const all = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const c = all.find((w) => new URL(w.url).origin === self.location.origin);
  if (c === undefined) {
    await self.clients.openWindow(url);
    return;
  }
  try {
    await c.focus();
  } catch {
    // Focus may be refused; the tab still moves to the session.
  }
  c.postMessage({ type: 'open', url });
}

// Browsers offer automation no way to tap a notification, so the browser
// test asks for the same click through this message. It can do nothing a
// page of this origin could not do itself.
self.addEventListener('message', (ev) => {
  const m = ev.data || {};
  if (m.type !== 'test-notificationclick' || typeof m.tag !== 'string') return;
  ev.waitUntil(self.registration.getNotifications({ tag: m.tag }).then((ns) => (ns[0] ? notificationClicked(ns[0], m.action || '') : undefined)));
});
