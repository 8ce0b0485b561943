// The service worker of a player's notifications (issue #37), served at `/k/{key}/sw.js`
// with the scope `/k/{key}/`: it shows what the server pushed (title, body) and, when tapped,
// opens the player's page (the scope without its last slash).
self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (err) {
    data = { title: event.data ? event.data.text() : '' };
  }
  event.waitUntil(self.registration.showNotification(data.title || '', {
    body: data.body || '',
    tag: data.tag,
    lang: data.lang,
    renotify: true,
    data: { url: self.registration.scope.replace(/\/$/, '') },
  }));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = (event.notification.data && event.notification.data.url) || '/';
  event.waitUntil((async () => {
    const open = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
    for (const client of open) {
      if (client.url.startsWith(url) && 'focus' in client) return client.focus();
    }
    return self.clients.openWindow(url);
  })());
});
