// The playground's service worker. Two jobs:
//
// 1. The application offline and without a second download: every file of the build (the
//    list below, written by scripts/hash-assets.py; all but index.html carry their content
//    hash in their name) is served from the cache `cpa-<VERSION>` once there. The page fills
//    the cache after Z3 has loaded (`precache`, from the browser's HTTP cache, so nothing is
//    downloaded twice); where this worker controls the page from the start, each file is
//    cached as it passes. index.html is fetched from the network first (a new build shows at
//    once) and from the cache when the network fails (offline).
// 2. Cross-origin isolation where the host sends no headers (GitHub Pages): Z3's threads need
//    SharedArrayBuffer, so every response gets COOP/COEP/CORP, as the coi-serviceworker
//    package (0.1.7, MIT, Guido Zuidhof and contributors) does; the page reloads once when
//    this worker first controls it (index.html).
'use strict';

const VERSION = 'dev';
const ASSETS = [];
const CACHE = `cpa-${VERSION}`;
const INDEX = 'index.html';
const ASSET_SET = new Set(ASSETS);
let coepCredentialless = false;

self.addEventListener('install', () => self.skipWaiting());

self.addEventListener('activate', (event) => event.waitUntil((async () => {
  // Caches of earlier builds go (a page still open on one of them finds its files, all
  // content-hashed, in the browser's HTTP cache).
  for (const key of await caches.keys()) {
    if (key.startsWith('cpa-') && key !== CACHE) await caches.delete(key);
  }
  await self.clients.claim();
})()));

/** The path of `url` below this worker's scope ('' for the scope itself), or null. */
function scoped(url) {
  const scope = new URL(self.registration.scope);
  if (url.origin !== scope.origin || !url.pathname.startsWith(scope.pathname)) return null;
  return url.pathname.slice(scope.pathname.length);
}

const cacheUrl = (path) => new URL(path, self.registration.scope).href;

/** Every file of the build into the cache; answers how many were fetched and how many failed. */
async function precache() {
  const cache = await caches.open(CACHE);
  let fetched = 0;
  let failed = 0;
  for (const path of [INDEX, ...ASSETS]) {
    if (await cache.match(cacheUrl(path))) continue;
    try {
      const response = await fetch(cacheUrl(path));
      if (response.ok) {
        await cache.put(cacheUrl(path), response);
        fetched += 1;
      } else {
        failed += 1;
      }
    } catch (e) {
      failed += 1;
    }
  }
  return { version: VERSION, files: ASSETS.length + 1, fetched, failed };
}

self.addEventListener('message', (event) => {
  const data = event.data || {};
  if (data.type === 'precache') {
    const port = event.ports[0];
    event.waitUntil(precache().then(
      (r) => port && port.postMessage(r),
      (e) => port && port.postMessage({ version: VERSION, error: String(e) }),
    ));
  } else if (data.type === 'coepCredentialless') {
    coepCredentialless = data.value;
  }
});

/** `response` with the headers of cross-origin isolation (an opaque one as it is). */
function isolated(response) {
  if (response.status === 0) return response;
  const headers = new Headers(response.headers);
  headers.set('Cross-Origin-Embedder-Policy', coepCredentialless ? 'credentialless' : 'require-corp');
  if (!coepCredentialless) headers.set('Cross-Origin-Resource-Policy', 'cross-origin');
  headers.set('Cross-Origin-Opener-Policy', 'same-origin');
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/** The response to `request`; `later` keeps the worker alive for a cache write (not awaited:
 * Z3's 35 MB stream to the page while they are written). */
async function respond(request, later) {
  const path = request.method === 'GET' ? scoped(new URL(request.url)) : null;
  if (path === null) {
    const r = coepCredentialless && request.mode === 'no-cors' ? new Request(request, { credentials: 'omit' }) : request;
    return fetch(r);
  }
  const cache = await caches.open(CACHE);
  if (request.mode === 'navigate' || path === '' || path === INDEX) {
    try {
      const response = await fetch(request);
      if (response.status === 200 && !response.redirected) {
        later(cache.put(cacheUrl(INDEX), response.clone()));
      }
      return response;
    } catch (e) {
      const cached = await cache.match(cacheUrl(INDEX));
      if (cached) return cached;
      throw e;
    }
  }
  if (ASSET_SET.has(path)) {
    const cached = await cache.match(cacheUrl(path));
    if (cached) return cached;
    const response = await fetch(request);
    if (response.status === 200) later(cache.put(cacheUrl(path), response.clone()));
    return response;
  }
  return fetch(request);
}

self.addEventListener('fetch', (event) => {
  const r = event.request;
  if (r.cache === 'only-if-cached' && r.mode !== 'same-origin') return;
  event.respondWith(respond(r, (p) => event.waitUntil(p.catch(() => {}))).then(isolated));
});
