// The static site offline (issue 63): every file of the site kept in the browser's cache at
// the first visit, then served from it (the network only for what is not there). A new
// site (another VERSION) replaces the old cache whole. `make site` writes VERSION and FILES.
const VERSION = "osada-__VERSION__";
const FILES = __FILES__;
self.addEventListener("install", (e) => {
  e.waitUntil(caches.open(VERSION).then((c) => c.addAll(FILES)).then(() => self.skipWaiting()));
});
self.addEventListener("activate", (e) => {
  e.waitUntil(caches.keys().then((keys) => Promise.all(keys.filter((k) => k !== VERSION).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});
self.addEventListener("fetch", (e) => {
  if (e.request.method !== "GET") return;
  e.respondWith(caches.open(VERSION).then((c) => c.match(e.request, { ignoreSearch: true }))
    .then((hit) => hit || fetch(e.request)));
});
