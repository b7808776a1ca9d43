// The service worker: it shows the site's push notices, and a click on
// one opens the player's game, or brings its tab forward if one is open.
self.addEventListener('push', (event) => {
  const msg = event.data ? event.data.json() : {};
  // A notice replaces the last one of its game (the tag); renotify lets
  // the new one be heard, as it is news.
  event.waitUntil(self.registration.showNotification(msg.title || 'bretter', {
    body: msg.body || '', tag: msg.tag, renotify: !!msg.tag, data: { url: msg.url || '/' },
  }));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = new URL(event.notification.data.url, self.location.origin);
  // The tab that turned notices on is not this worker's to control until
  // it is loaded again: it is looked for too.
  event.waitUntil(self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
    const open = windows.find((w) => new URL(w.url).pathname === url.pathname);
    return open ? open.focus() : self.clients.openWindow(url.href);
  }));
});
