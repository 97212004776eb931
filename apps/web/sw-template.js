/* The service worker (issue 16, installable app); the build fills in its version and the files of the shell. */
const VERSION = '__VERSION__';
const PRECACHE = __PRECACHE__;
const CACHE = `shiliu-${VERSION}`;
const OFFLINE = '/offline.html';
/** Calls whose answers belong to one student (or change every second): always the network, never stored. */
const NETWORK_ONLY = /^\/(api|health|metrics)(\/|$)/;

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(PRECACHE))
      .then(() => self.skipWaiting()),
  );
});

// A new version takes over at once and drops the old one's files, so a reload shows the new build.
self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => name.startsWith('shiliu-') && name !== CACHE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

async function fromCacheFirst(request) {
  const cached = await caches.match(request);
  if (cached) return cached;
  const answer = await fetch(request);
  if (answer.ok) {
    const copy = answer.clone();
    caches.open(CACHE).then((cache) => cache.put(request, copy));
  }
  return answer;
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin || NETWORK_ONLY.test(url.pathname)) return;
  if (request.mode === 'navigate') {
    // Pages come from the network first, so a deploy is picked up on reload; offline, the offline page answers.
    event.respondWith(fetch(request).catch(() => caches.match(OFFLINE)));
    return;
  }
  // Built files carry their content hash in the name, so a stored copy is never stale.
  if (url.pathname.startsWith('/assets/') || PRECACHE.includes(url.pathname)) event.respondWith(fromCacheFirst(request));
});
