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
