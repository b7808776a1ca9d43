// The service worker: it shows the site's push notices while no page of
// the game is open, and a click on one opens the player's game.
self.addEventListener('push', (event) => {
  const msg = event.data ? event.data.json() : {};
  event.waitUntil(self.registration.showNotification(msg.title || 'bretter', {
    body: msg.body || '', tag: msg.tag, data: { url: msg.url || '/' },
  }));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = new URL(event.notification.data.url, self.location.origin).href;
  event.waitUntil(self.clients.matchAll({ type: 'window' }).then((windows) => {
    const open = windows.find((w) => w.url === url);
    return open ? open.focus() : self.clients.openWindow(url);
  }));
});
