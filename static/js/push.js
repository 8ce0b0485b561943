// Web push on a player's page (issue #37): one tap subscribes this browser to the player's
// notifications. The service worker is the key's own (`/k/{key}/sw.js`, scope `/k/{key}/`),
// so the key never travels in a notification; the subscription goes to
// `POST /api/v1/keys/{key}/push` and leaves with `DELETE`.
(function () {
  'use strict';
  const box = document.getElementById('push');
  if (!box) return;
  const key = box.dataset.key;
  const on = document.getElementById('push-on');
  const off = document.getElementById('push-off');
  const state = document.getElementById('push-state');
  const say = (what) => { state.textContent = box.dataset[what] || ''; };
  const shown = (subscribed) => { on.hidden = subscribed; off.hidden = !subscribed; };
  if (!window.isSecureContext || !('serviceWorker' in navigator) || !('PushManager' in window)
      || !('Notification' in window)) {
    say('unsupported');
    return;
  }
  const scope = `/k/${key}/`;
  const api = `/api/v1/keys/${key}/push`;
  const bytes = (b64url) => {
    const b64 = b64url.replace(/-/g, '+').replace(/_/g, '/');
    const raw = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
    return Uint8Array.from(raw, (c) => c.charCodeAt(0));
  };
  const active = (reg) => new Promise((resolve) => {
    if (reg.active) return resolve(reg);
    const worker = reg.installing || reg.waiting;
    worker.addEventListener('statechange', () => {
      if (worker.state === 'activated') resolve(reg);
    });
  });
  const current = async () => {
    const reg = await navigator.serviceWorker.getRegistration(scope);
    return reg ? reg.pushManager.getSubscription() : null;
  };
  current().then((sub) => {
    shown(Boolean(sub));
    if (sub) say('subscribed');
  }, () => shown(false));
  on.addEventListener('click', async () => {
    on.disabled = true;
    try {
      const permission = await Notification.requestPermission();
      if (permission !== 'granted') {
        say('blocked');
        return;
      }
      const reg = await active(await navigator.serviceWorker.register(`${scope}sw.js`, { scope }));
      const answer = await fetch('/api/v1/push/key');
      const { public_key: serverKey } = await answer.json();
      const sub = await reg.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: bytes(serverKey),
      });
      const body = Object.assign(sub.toJSON(), { lang: document.documentElement.lang });
      const saved = await fetch(api, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (!saved.ok) throw new Error(`subscription refused: ${saved.status}`);
      shown(true);
      say('subscribed');
    } catch (err) {
      console.warn(err);
      say('failed');
    } finally {
      on.disabled = false;
    }
  });
  off.addEventListener('click', async () => {
    off.disabled = true;
    try {
      const sub = await current();
      if (sub) {
        await fetch(api, {
          method: 'DELETE',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ endpoint: sub.endpoint }),
        });
        await sub.unsubscribe();
      }
      shown(false);
      say('stopped');
    } finally {
      off.disabled = false;
    }
  });
}());
