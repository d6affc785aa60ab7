// The Cache Storage side of clearing a device (decision 023). The service worker caches only
// the build's static files (sw/src/sw.ts), never an API response, but a cache from an older
// build, a browser extension's, or a future runtime route could hold one. Clearing keeps the
// precache (the app must still open offline) minus anything under /api/, and deletes every
// other cache of this origin.
const PRECACHE_PREFIX = 'workbox-precache';
const API_PATH = /^\/api(\/|$)/;

export async function clearPatientCaches(storage: CacheStorage | undefined = globalThis.caches) {
  if (storage === undefined) return;
  for (const name of await storage.keys()) {
    if (!name.startsWith(PRECACHE_PREFIX)) {
      await storage.delete(name);
      continue;
    }
    const cache = await storage.open(name);
    for (const request of await cache.keys()) {
      if (API_PATH.test(new URL(request.url).pathname)) await cache.delete(request);
    }
  }
}
