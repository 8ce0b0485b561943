//! The anonymous writer's cookie ([`super::WROTE_COOKIE`]): after a write, a visitor without a
//! session sees the current version of the live pages for a few seconds instead of the
//! hall's last body. The cookie is signed by this process (its expiry and an HMAC under a key
//! drawn at start), so a client cannot forge it to make every poll skip the shared body; one
//! written on another instance is not honoured there (that visitor's page is then at most
//! [`super::REFRESH`] old, like everyone's).

use hmac::{Hmac, Mac};
use sha2::Sha256;
use std::time::{SystemTime, UNIX_EPOCH};

/// How long the cookie lasts.
pub const WROTE_SECONDS: u64 = 10;

/// The process's signing key.
pub struct WroteKey([u8; 32]);

impl Default for WroteKey {
    fn default() -> WroteKey {
        use rand_core::RngCore as _;
        let mut key = [0u8; 32];
        rand_core::OsRng.fill_bytes(&mut key);
        WroteKey(key)
    }
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

impl WroteKey {
    fn mac(&self, expires: u64) -> String {
        // A key of any length is accepted by HMAC.
        let mut mac = match Hmac::<Sha256>::new_from_slice(&self.0) {
            Ok(mac) => mac,
            Err(_) => return String::new(),
        };
        mac.update(expires.to_string().as_bytes());
        hex::encode(&mac.finalize().into_bytes()[..16])
    }

    /// The cookie's value for a write now: its expiry and signature.
    pub fn value(&self) -> String {
        let expires = now() + WROTE_SECONDS;
        format!("{expires}.{}", self.mac(expires))
    }

    /// Whether `value` is a cookie this process signed that has not expired.
    pub fn verify(&self, value: &str) -> bool {
        let Some((expires, mac)) = value.split_once('.') else {
            return false;
        };
        let Ok(expires) = expires.parse::<u64>() else {
            return false;
        };
        let expected = self.mac(expires);
        // Constant time, so the signature cannot be found byte by byte.
        expires >= now()
            && !expected.is_empty()
            && expected.len() == mac.len()
            && expected
                .bytes()
                .zip(mac.bytes())
                .fold(0u8, |acc, (a, b)| acc | (a ^ b))
                == 0
    }
}

#[cfg(test)]
mod tests {
    use super::WroteKey;

    #[test]
    fn only_a_fresh_cookie_signed_here_counts() {
        let key = WroteKey::default();
        let value = key.value();
        assert!(key.verify(&value));
        assert!(!key.verify("1"), "the old unsigned value");
        assert!(!WroteKey::default().verify(&value), "another process's key");
        let (expires, mac) = value.split_once('.').unwrap();
        let later = expires.parse::<u64>().unwrap() + 100;
        assert!(!key.verify(&format!("{later}.{mac}")), "a changed expiry");
        assert!(!key.verify(&format!("1.{}", key.mac(1))), "expired");
        assert!(!key.verify(&format!("{expires}.{}", "0".repeat(32))));
    }
}
