//! Web push (issue #37; RFC 8030 delivery, RFC 8291 `aes128gcm` encryption, RFC 8292 VAPID).
//!
//! The server's VAPID key pair (P-256) is made on first start and kept in the database
//! (`vapid_key`); `GET /api/v1/push/key` gives its public key. A player's browser subscribes
//! through the key (`/k/{key}`, or `POST /api/v1/keys/{key}/push` with the browser's
//! `PushSubscription` JSON) and unsubscribes with `DELETE`. When a round is published, a
//! trigger queues one message per subscription of each of its players in the publication's
//! transaction (`outbox_player_rounds`: only what the player's own page shows); the delivery
//! worker writes it in the subscription's language ([`notification`]), encrypts it for the
//! browser (`web-push-native`), signs a VAPID token ([`vapid_authorization`]) and POSTs it to
//! the push service. A push service that answers 404 or 410 removes the subscription.

use super::check::Check;
use super::throttle::Limits;
use super::{Error, Result};
use crate::db;
use crate::i18n::{messages as m, Lang, Tr};
use base64::engine::general_purpose::{URL_SAFE, URL_SAFE_NO_PAD};
use base64::Engine as _;
use chrono::{DateTime, Utc};
use p256::ecdsa::signature::Signer as _;
use p256::elliptic_curve::sec1::ToEncodedPoint as _;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use sqlx::PgPool;
use std::collections::HashMap;
use std::net::IpAddr;
use utoipa::ToSchema;
use uuid::Uuid;

/// Reads base64url, padded or not (browsers send it unpadded; some libraries pad).
pub fn decode_b64url(text: &str) -> Option<Vec<u8>> {
    let text = text.trim();
    if text.contains('=') {
        URL_SAFE.decode(text).ok()
    } else {
        URL_SAFE_NO_PAD.decode(text).ok()
    }
}

/// base64url without padding.
pub fn encode_b64url(bytes: &[u8]) -> String {
    URL_SAFE_NO_PAD.encode(bytes)
}

/// The server's VAPID key pair.
#[derive(Clone)]
pub struct Vapid {
    signing: p256::ecdsa::SigningKey,
    /// The public key (uncompressed point, base64url): the browser's `applicationServerKey`.
    pub public_key: String,
    /// Signed tokens by audience and subject, with their expiry (a token serves every push to
    /// its origin until an hour before it runs out: one signature per push service, not per
    /// message).
    tokens: std::sync::Arc<std::sync::Mutex<HashMap<String, (String, i64)>>>,
}

impl std::fmt::Debug for Vapid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Vapid")
            .field("public_key", &self.public_key)
            .finish_non_exhaustive()
    }
}

impl Vapid {
    fn from_row(row: &db::push::VapidKey) -> Result<Vapid> {
        let scalar = decode_b64url(&row.private_key)
            .ok_or_else(|| Error::Internal("the stored VAPID key is not base64url".into()))?;
        let signing = p256::ecdsa::SigningKey::from_slice(&scalar)
            .map_err(|_| Error::Internal("the stored VAPID key is not a P-256 key".into()))?;
        Ok(Vapid {
            signing,
            public_key: row.public_key.clone(),
            tokens: Default::default(),
        })
    }

    /// The `Authorization` header for a push to `endpoint` (RFC 8292: `vapid t=<JWT>,
    /// k=<public key>`): an ES256 token for the endpoint's origin, valid for 12 hours, with
    /// `subject` (a `mailto:` or `https:` contact) when one is known.
    pub fn authorization(&self, endpoint: &str, subject: Option<&str>) -> Option<String> {
        let uri: hyper::Uri = endpoint.parse().ok()?;
        let scheme = uri.scheme_str()?;
        let authority = uri.authority()?.as_str();
        let audience = format!("{scheme}://{authority}");
        let now = Utc::now().timestamp();
        let cache_key = format!("{audience} {}", subject.unwrap_or_default());
        if let Ok(tokens) = self.tokens.lock() {
            if let Some((token, exp)) = tokens.get(&cache_key) {
                if *exp - now > 3600 {
                    return Some(format!("vapid t={token}, k={}", self.public_key));
                }
            }
        }
        let exp = now + 12 * 3600;
        let mut claims = json!({ "aud": audience, "exp": exp });
        if let Some(sub) = subject {
            claims["sub"] = Value::from(sub);
        }
        let header = encode_b64url(br#"{"typ":"JWT","alg":"ES256"}"#);
        let claims = encode_b64url(serde_json::to_vec(&claims).ok()?.as_slice());
        let input = format!("{header}.{claims}");
        let signature: p256::ecdsa::Signature = self.signing.sign(input.as_bytes());
        let token = format!("{input}.{}", encode_b64url(&signature.to_bytes()));
        if let Ok(mut tokens) = self.tokens.lock() {
            tokens.insert(cache_key, (token.clone(), exp));
        }
        Some(format!("vapid t={token}, k={}", self.public_key))
    }
}

/// The key pair, made (and stored) when there is none: at the server's first start, and by
/// the first caller on a database that never saw a start.
pub async fn vapid(pool: &PgPool) -> Result<Vapid> {
    if let Some(row) = db::push::vapid_key(pool).await? {
        return Vapid::from_row(&row);
    }
    let secret = p256::SecretKey::random(&mut rand_core::OsRng);
    let public = secret.public_key().to_encoded_point(false);
    db::push::insert_vapid_key(
        pool,
        &encode_b64url(&secret.to_bytes()),
        &encode_b64url(public.as_bytes()),
    )
    .await?;
    // Two first starts at once: both read the one that was stored first.
    let row = db::push::vapid_key(pool)
        .await?
        .ok_or_else(|| Error::Internal("no VAPID key after storing one".into()))?;
    Vapid::from_row(&row)
}

/// The server's VAPID public key.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PushKey {
    /// The uncompressed P-256 point, base64url without padding: the `applicationServerKey` of
    /// `PushManager.subscribe`.
    pub public_key: String,
}

/// The public key (anyone).
pub async fn public_key(pool: &PgPool) -> Result<PushKey> {
    Ok(PushKey {
        public_key: vapid(pool).await?.public_key,
    })
}

/// The browser's keys of a subscription.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
pub struct PushKeys {
    /// The browser's P-256 public key (base64url, 65 bytes).
    pub p256dh: String,
    /// The authentication secret (base64url, 16 bytes).
    pub auth: String,
}

/// A browser's `PushSubscription` as its `toJSON()` gives it (other members are ignored),
/// with the language of the notifications.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
pub struct PushSubscriptionInput {
    /// The push service's endpoint (https).
    pub endpoint: String,
    /// The browser's keys.
    pub keys: PushKeys,
    /// The language of the notifications (`zh-Hant`, `zh-Hans`, `en`); when absent, the
    /// request's language (`?lang=`, the `lang` cookie, `Accept-Language`), else the event's.
    #[serde(default)]
    pub lang: Option<String>,
}

/// The end of a subscription: its endpoint (the whole `PushSubscription` JSON also does).
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
pub struct PushUnsubscribe {
    /// The push service's endpoint.
    pub endpoint: String,
}

/// A stored subscription.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PushSubscribed {
    /// Its id.
    pub id: Uuid,
    /// The language its notifications are written in.
    pub lang: String,
    /// How many browsers of this player are subscribed.
    pub subscriptions: i64,
}

/// Checks a push endpoint: an http(s) URL without credentials, https unless private
/// endpoints are allowed (tests and local setups).
pub fn check_endpoint(endpoint: &str, allow_private: bool) -> bool {
    match super::outbox::check_url(endpoint) {
        Ok(uri) => endpoint.len() <= 2000 && (allow_private || uri.scheme_str() == Some("https")),
        Err(_) => false,
    }
}

/// Subscribes a browser to the notifications of `key`'s player (upserts by endpoint).
#[allow(clippy::too_many_arguments)]
pub async fn subscribe(
    pool: &PgPool,
    limits: &Limits,
    ip: IpAddr,
    key: &str,
    input: &PushSubscriptionInput,
    request_lang: Option<Lang>,
    allow_private: bool,
) -> Result<PushSubscribed> {
    let entrant = super::keys::find(pool, limits, ip, key).await?;
    let mut check = Check::new();
    let endpoint = input.endpoint.trim();
    if !check_endpoint(endpoint, allow_private) {
        check.error("endpoint", m::CHECK_PUSH_ENDPOINT.msg());
    }
    let p256dh = decode_b64url(&input.keys.p256dh)
        .filter(|bytes| p256::PublicKey::from_sec1_bytes(bytes).is_ok() && bytes.len() == 65);
    if p256dh.is_none() {
        check.error("keys.p256dh", m::CHECK_PUSH_KEYS.msg());
    }
    let auth = decode_b64url(&input.keys.auth).filter(|bytes| bytes.len() == 16);
    if auth.is_none() {
        check.error("keys.auth", m::CHECK_PUSH_KEYS.msg());
    }
    check.finish()?;
    let lang = input
        .lang
        .as_deref()
        .and_then(Lang::from_tag)
        .or(request_lang)
        .or_else(|| Lang::from_tag(&entrant.default_language))
        .unwrap_or(Lang::ZhHant);
    let (p256dh, auth) = match (p256dh, auth) {
        (Some(p), Some(a)) => (encode_b64url(&p), encode_b64url(&a)),
        _ => return Err(Error::Internal("checked keys missing".into())),
    };
    let stored = db::push::upsert(
        pool,
        entrant.entrant_id,
        endpoint,
        &p256dh,
        &auth,
        lang.tag(),
    )
    .await?;
    Ok(PushSubscribed {
        id: stored.subscription_id,
        lang: stored.lang,
        subscriptions: db::push::count_for(pool, entrant.entrant_id).await?,
    })
}

/// Ends a browser's subscription (404 when it has none with this key).
pub async fn unsubscribe(
    pool: &PgPool,
    limits: &Limits,
    ip: IpAddr,
    key: &str,
    endpoint: &str,
) -> Result<()> {
    let entrant = super::keys::find(pool, limits, ip, key).await?;
    if db::push::remove(pool, entrant.entrant_id, endpoint.trim()).await? {
        Ok(())
    } else {
        Err(Error::NotFound(m::NOT_FOUND_PUSH_SUBSCRIPTION))
    }
}

/// Removes a subscription its push service says is gone (404/410).
pub async fn forget(pool: &PgPool, subscription_id: Uuid) -> Result<()> {
    db::push::remove_by_id(pool, subscription_id).await?;
    Ok(())
}

/// What a round's message to a player says (`outbox_player_rounds` in SQL).
#[derive(Debug, Clone, Deserialize)]
pub struct RoundNotice {
    /// Tournament name.
    pub tournament: String,
    /// Section name.
    pub section: String,
    /// Section id.
    pub section_id: Uuid,
    /// Round number.
    pub round: i32,
    /// The event's time zone.
    pub time_zone: String,
    /// The planned start.
    pub starts_at: Option<DateTime<Utc>>,
    /// The player's board (none with a bye).
    pub board: Option<i32>,
    /// `red` or `black` (none with a bye).
    pub side: Option<String>,
    /// A bye.
    pub bye: bool,
    /// The opponent.
    pub opponent: Option<NoticeOpponent>,
    /// `schedule`: the round's planned start changed (no board yet, or not the news); none:
    /// the round's pairing.
    #[serde(default)]
    pub kind: Option<String>,
}

/// The opponent in a notice.
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct NoticeOpponent {
    /// Starting number.
    pub start_no: Option<i32>,
    /// Name.
    pub name: String,
}

impl RoundNotice {
    /// The opponent as the player's page shows it (`3. Name`).
    pub fn opponent_shown(&self) -> String {
        match &self.opponent {
            Some(NoticeOpponent {
                start_no: Some(no),
                name,
            }) => format!("{no}. {name}"),
            Some(o) => o.name.clone(),
            None => String::new(),
        }
    }

    /// The planned start in the event's zone (`2026-12-08 09:30`).
    pub fn starts_shown(&self) -> Option<String> {
        let zone: chrono_tz::Tz = self.time_zone.parse().unwrap_or(chrono_tz::UTC);
        self.starts_at
            .map(|t| t.with_timezone(&zone).format("%Y-%m-%d %H:%M").to_string())
    }

    /// The title and the text of the notice in `lang`.
    pub fn words(&self, lang: Lang) -> (String, String) {
        let tr = Tr { lang };
        let title = tr.fmt_n("push.title", &[&self.tournament, &self.round]);
        if self.kind.as_deref() == Some("schedule") {
            let at = self.starts_shown().unwrap_or_default();
            return (title, tr.fmt_n("push.rescheduled", &[&self.round, &at]));
        }
        let mut body = match (&self.board, &self.side) {
            (Some(board), Some(side)) if !self.bye => tr.fmt_n(
                "push.pairing",
                &[board, &tr.t(&format!("col.{side}")), &self.opponent_shown()],
            ),
            _ => tr.fmt("keypage.bye", self.round),
        };
        if let Some(at) = self.starts_shown() {
            body.push(' ');
            body.push_str(&tr.fmt("push.starts", at));
        }
        (title, body)
    }
}

/// The push message of a queued round notice, in `lang`: JSON the service worker shows
/// (`title`, `body`, `tag`) with the facts it says (round, board, side, opponent, start).
pub fn notification(payload: &Value, lang: Lang) -> Option<Vec<u8>> {
    let notice: RoundNotice = serde_json::from_value(payload.clone()).ok()?;
    let (title, body) = notice.words(lang);
    serde_json::to_vec(&json!({
        "title": title,
        "body": body,
        "tag": match notice.kind.as_deref() {
            Some("schedule") => format!("schedule-{}-{}", notice.section_id, notice.round),
            _ => format!("round-{}-{}", notice.section_id, notice.round),
        },
        "kind": notice.kind.as_deref().unwrap_or("round"),
        "lang": lang.tag(),
        "tournament": notice.tournament,
        "section": notice.section,
        "round": notice.round,
        "board": notice.board,
        "side": notice.side,
        "bye": notice.bye,
        "opponent": notice.opponent,
        "starts_at": notice.starts_at,
    }))
    .ok()
}

/// Encrypts `message` for a subscription (RFC 8291 `aes128gcm`, one record).
pub fn encrypt(message: Vec<u8>, p256dh: &str, auth: &str) -> Option<Vec<u8>> {
    let public = p256::PublicKey::from_sec1_bytes(&decode_b64url(p256dh)?).ok()?;
    let auth = decode_b64url(auth).filter(|a| a.len() == 16)?;
    let auth = web_push_native::Auth::clone_from_slice(&auth);
    web_push_native::encrypt(message, &public, &auth).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_notice_says_board_colour_opponent_and_start_in_the_players_language() {
        let notice: RoundNotice = serde_json::from_value(json!({
            "tournament": "Open", "section": "A", "section_id": Uuid::nil(), "round": 3,
            "time_zone": "Asia/Taipei", "starts_at": "2026-12-08T01:30:00Z",
            "board": 7, "side": "black", "bye": false,
            "opponent": {"start_no": 12, "name": "王小明"}
        }))
        .unwrap();
        let (title, body) = notice.words(Lang::En);
        assert_eq!(title, "Open · round 3");
        assert_eq!(
            body,
            "Board 7: you play Black against 12. 王小明. Starts at 2026-12-08 09:30."
        );
        let (_, body) = notice.words(Lang::ZhHant);
        assert!(body.contains("第 7 台") && body.contains("黑方"), "{body}");
    }

    #[test]
    fn vapid_tokens_verify_with_the_public_key() {
        use p256::ecdsa::signature::Verifier as _;
        let secret = p256::SecretKey::random(&mut rand_core::OsRng);
        let row = db::push::VapidKey {
            private_key: encode_b64url(&secret.to_bytes()),
            public_key: encode_b64url(secret.public_key().to_encoded_point(false).as_bytes()),
        };
        let vapid = Vapid::from_row(&row).unwrap();
        let header = vapid
            .authorization("https://push.example:8443/x/y", Some("mailto:a@b.example"))
            .unwrap();
        let token = header
            .strip_prefix("vapid t=")
            .unwrap()
            .split(", k=")
            .next()
            .unwrap();
        let (input, sig) = token.rsplit_once('.').unwrap();
        let claims: Value =
            serde_json::from_slice(&decode_b64url(input.split('.').nth(1).unwrap()).unwrap())
                .unwrap();
        assert_eq!(claims["aud"], "https://push.example:8443");
        assert_eq!(claims["sub"], "mailto:a@b.example");
        let sig = p256::ecdsa::Signature::from_slice(&decode_b64url(sig).unwrap()).unwrap();
        let public =
            p256::ecdsa::VerifyingKey::from_sec1_bytes(&decode_b64url(&vapid.public_key).unwrap())
                .unwrap();
        public.verify(input.as_bytes(), &sig).unwrap();
    }

    #[test]
    fn encrypted_messages_decrypt_with_the_browsers_key() {
        let browser = p256::SecretKey::random(&mut rand_core::OsRng);
        let p256dh = encode_b64url(browser.public_key().to_encoded_point(false).as_bytes());
        let auth = encode_b64url(&[7u8; 16]);
        let sealed = encrypt(b"hello".to_vec(), &p256dh, &auth).unwrap();
        let opened = web_push_native::decrypt(
            sealed,
            &browser,
            &web_push_native::Auth::clone_from_slice(&[7u8; 16]),
        )
        .unwrap();
        assert_eq!(opened, b"hello");
    }
}
