// Browser test of issue #37's web push: a player taps "Notify me" on their /k/{key} page in
// Chromium (notification permission granted, the real service worker registered at
// /k/{key}/sw.js); the round is published; the server's worker pushes the encrypted message to
// a push service started here, which decrypts it (RFC 8291 aes128gcm, with the browser's
// private key) and finds the board, colour and opponent the page shows.
//
// Headless Chromium has no push service behind PushManager (its real subscribe() needs Google's
// FCM), so the one thing faked is PushManager.subscribe/getSubscription: they answer with a
// subscription whose endpoint is this test's push service and whose keys (P-256, auth) the
// test made, exactly the PushSubscription JSON the page posts. Everything else is real.
// Registered by run.mjs with
//
//   import { registerPushTests } from './push.mjs';
//   registerPushTests({ test, assert, api, admin: ADMIN, base: () => base });

import { createECDH, createHmac, createDecipheriv, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';

const b64url = (buf) => Buffer.from(buf).toString('base64url');

function hkdfExpand(prk, info, length) {
  // One block is enough for 32 bytes and less (RFC 5869).
  return createHmac('sha256', prk).update(Buffer.concat([info, Buffer.from([1])])).digest().subarray(0, length);
}

/** Opens an aes128gcm message (RFC 8188/8291) with the browser's ECDH key and auth secret. */
function decrypt(body, ecdh, auth) {
  const salt = body.subarray(0, 16);
  const idlen = body[20];
  const serverPublic = body.subarray(21, 21 + idlen);
  const sealed = body.subarray(21 + idlen);
  const shared = ecdh.computeSecret(serverPublic);
  const prkKey = createHmac('sha256', auth).update(shared).digest();
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), ecdh.getPublicKey(), serverPublic]);
  const ikm = hkdfExpand(prkKey, keyInfo, 32);
  const prk = createHmac('sha256', salt).update(ikm).digest();
  const cek = hkdfExpand(prk, Buffer.from('Content-Encoding: aes128gcm\0'), 16);
  const nonce = hkdfExpand(prk, Buffer.from('Content-Encoding: nonce\0'), 12);
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(sealed.subarray(sealed.length - 16));
  const padded = Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - 16)), decipher.final()]);
  let end = padded.length - 1;
  while (end > 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error('not the last record');
  return JSON.parse(padded.subarray(0, end).toString('utf8'));
}

export function registerPushTests({ test, assert, api, admin, base }) {
  test('a player taps "Notify me" on their key page; the published pairing arrives at the push service, decrypted', async ({ page, context }) => {
    const received = [];
    const receiver = createServer((req, res) => {
      const chunks = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        received.push({ url: req.url, headers: req.headers, body: Buffer.concat(chunks) });
        res.writeHead(201).end();
      });
    });
    await new Promise((ok) => receiver.listen(0, '127.0.0.1', ok));
    const endpoint = `http://127.0.0.1:${receiver.address().port}/push/browser-1`;
    try {
      const { token } = await api('POST', '/api/v1/auth/login', admin);
      const t = await api('POST', '/api/v1/tournaments', { name: 'Push Open', game: 'xiangqi', default_language: 'en' }, token);
      const s = await api('POST', `/api/v1/tournaments/${t.id}/sections`, { name: 'Open', rounds: 5 }, token);
      for (let i = 1; i <= 4; i++) {
        await api('POST', `/api/v1/sections/${s.id}/entrants`, { name: `Push Player ${i}`, rating: 2000 - i }, token);
      }
      const keys = await api('GET', `/api/v1/sections/${s.id}/keys`, undefined, token);
      const mine = keys.find((k) => k.start_no === 3);

      // The browser's keys (made here, so that this test can open what arrives).
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16);
      const fake = { endpoint, p256dh: b64url(ecdh.getPublicKey()), auth: b64url(auth) };
      await context.grantPermissions(['notifications'], { origin: base() });
      await page.addInitScript((sub) => {
        // The browser keeps its subscription across page loads (here: in localStorage).
        const make = () => ({
          endpoint: sub.endpoint,
          expirationTime: null,
          toJSON() {
            return { endpoint: sub.endpoint, expirationTime: null, keys: { p256dh: sub.p256dh, auth: sub.auth } };
          },
          async unsubscribe() { localStorage.removeItem('fake-push'); return true; },
        });
        PushManager.prototype.subscribe = async function subscribe(options) {
          // What a push service needs from the page: the server's 65-byte VAPID key.
          const key = new Uint8Array(options.applicationServerKey);
          if (key.length !== 65 || key[0] !== 4) throw new Error('not a P-256 public key');
          window.__vapidKey = Array.from(key);
          localStorage.setItem('fake-push', '1');
          return make();
        };
        PushManager.prototype.getSubscription = async function getSubscription() {
          return localStorage.getItem('fake-push') ? make() : null;
        };
      }, fake);

      await page.goto(`${base()}/k/${mine.key}`);
      await page.locator('#push-on').waitFor({ state: 'visible' });
      await page.click('#push-on');
      await page.locator('#push-off').waitFor({ state: 'visible' });
      const said = await page.textContent('#push-state');
      assert(said.includes('notified'), `the page says it is subscribed: ${said}`);
      // The real service worker is registered with the key's scope.
      const scope = await page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).map((r) => r.scope));
      assert(scope.some((s2) => s2.endsWith(`/k/${mine.key}/`)), `service worker scope: ${scope}`);
      const vapid = Buffer.from(await page.evaluate(() => window.__vapidKey)).toString('base64url');
      const { public_key: serverKey } = await api('GET', '/api/v1/push/key');
      assert(vapid === serverKey, 'subscribed with the server\'s VAPID key');

      // The round is published: the notification arrives.
      await api('POST', `/api/v1/sections/${s.id}/rounds`, undefined, token);
      await api('POST', `/api/v1/sections/${s.id}/rounds/1/publish`, undefined, token);
      const deadline = Date.now() + 20_000;
      while (received.length === 0 && Date.now() < deadline) await new Promise((ok) => setTimeout(ok, 100));
      assert(received.length === 1, `one push arrived: ${received.length}`);
      const push = received[0];
      assert(push.headers['content-encoding'] === 'aes128gcm', 'aes128gcm');
      assert(push.headers.authorization.startsWith('vapid t='), 'VAPID');
      const message = decrypt(push.body, ecdh, auth);

      // The page shows the same board, colour and opponent.
      await page.goto(`${base()}/k/${mine.key}`);
      const opponent = (await page.textContent('#opponent')).trim();
      const colour = (await page.textContent('#my-colour')).trim();
      const heading = await page.textContent('#board h2');
      assert(heading.includes(`Board ${message.board}`), `board ${message.board} on the page: ${heading}`);
      assert(colour.toLowerCase() === message.side, `colour ${message.side} on the page: ${colour}`);
      assert(opponent === `${message.opponent.start_no}. ${message.opponent.name}`, `opponent: ${opponent} vs ${JSON.stringify(message.opponent)}`);
      assert(message.body.includes(`Board ${message.board}: you play`), `English text: ${message.body}`);
      assert(message.title === 'Push Open · round 1', `title: ${message.title}`);

      // Turning notifications off removes the subscription.
      await page.locator('#push-off').waitFor({ state: 'visible' });
      await page.click('#push-off');
      await page.locator('#push-on').waitFor({ state: 'visible' });
      const gone = await fetch(`${base()}/api/v1/keys/${mine.key}/push`, {
        method: 'DELETE', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ endpoint }),
      });
      assert(gone.status === 404, `already unsubscribed: ${gone.status}`);
    } finally {
      receiver.close();
    }
  }, { context: { locale: 'en-US' } });
}
