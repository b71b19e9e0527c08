// agentdesk's service worker: the template of the built dist/sw.js (the
// Vite build fills in SHELL and VERSION, see vite.config.ts). It makes the
// app installable and quick to open: the app shell (the page, its scripts
// and styles, icons, manifest) is cached at install and served from the
// cache. Nothing else is: /api and /ws answers always come from the network
// and are never stored, and the page itself is fetched from the network
// first (it carries the sign-in result), the cached copy only when offline.
// A new build has a new VERSION: it installs, takes over and drops the old
// cache.

/** Paths of the app shell. */
const SHELL = /*SHELL*/ ['/'];
const VERSION = /*VERSION*/ 'dev';
const PREFIX = 'agentdesk-shell-';
const CACHE = PREFIX + VERSION;

self.addEventListener('install', (ev) => {
  ev.waitUntil(caches.open(CACHE).then((c) => c.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (ev) => {
  ev.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k.startsWith(PREFIX) && k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

/** True for what must never come from, or go into, the cache. */
function isLive(pathname) {
  return pathname === '/api' || pathname === '/ws' || pathname.startsWith('/api/') || pathname.startsWith('/ws/');
}

self.addEventListener('fetch', (ev) => {
  const req = ev.request;
  if (req.method !== 'GET') return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin || isLive(url.pathname)) return;
  if (req.mode === 'navigate') {
    ev.respondWith(fetch(req).catch(async () => (await caches.match('/', { cacheName: CACHE })) ?? Response.error()));
    return;
  }
  if (!SHELL.includes(url.pathname)) return;
  ev.respondWith(caches.match(req, { cacheName: CACHE }).then((hit) => hit ?? fetch(req)));
});
