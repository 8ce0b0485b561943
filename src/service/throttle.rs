//! One limiter for sign-ins and registrations, shared by the pages, the API and every server
//! instance: the counters live in PostgreSQL and each attempt is counted in one statement
//! before the password is checked, so concurrent guesses cannot race past the limit.

use super::{Error, Result};
use crate::db;
use crate::i18n::messages as m;
use sqlx::PgPool;
use std::net::IpAddr;
use std::time::Duration;
use uuid::Uuid;

/// One rule: at most `limit` attempts per `window`; the next one starts a lockout of
/// `lockout`, doubled with each lockout in a row, at most `max_lockout`.
#[derive(Debug, Clone, Copy)]
pub struct Rule {
    /// Attempts allowed per window.
    pub limit: i32,
    /// The window.
    pub window: Duration,
    /// The first lockout.
    pub lockout: Duration,
    /// The longest lockout.
    pub max_lockout: Duration,
}

/// The limits of sign-ins and registrations.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Per account: 10 sign-ins per 15 minutes, then 1 minute, 2, 4… up to a day.
    pub account: Rule,
    /// Per client address: 100 sign-ins per 15 minutes (a venue's NAT shares one address).
    pub address: Rule,
    /// Per client address and section: 20 registrations per hour.
    pub registration: Rule,
    /// Per client address: 30 wrong report codes per 15 minutes, then 5 minutes, 10… up to a
    /// day (a right code gives its attempt back, so a venue behind one address is not
    /// locked out by reporting; 48-bit codes at this pace are never guessed).
    pub report: Rule,
    /// Across every address: 300 wrong keys and report codes per 15 minutes, then 1 minute,
    /// 2, 4… up to an hour. Guessing from many addresses (a botnet, a rotated IPv6 prefix)
    /// meets this limit; a right key or code is looked up before any counting, so it always
    /// opens, and at this pace a 64-bit key (or a 48-bit code among a server's boards) is
    /// never guessed.
    pub report_space: Rule,
}

impl Default for Limits {
    fn default() -> Limits {
        let minutes = |m: u64| Duration::from_secs(60 * m);
        Limits {
            account: Rule {
                limit: 10,
                window: minutes(15),
                lockout: minutes(1),
                max_lockout: minutes(24 * 60),
            },
            address: Rule {
                limit: 100,
                window: minutes(15),
                lockout: minutes(5),
                max_lockout: minutes(24 * 60),
            },
            registration: Rule {
                limit: 20,
                window: minutes(60),
                lockout: minutes(60),
                max_lockout: minutes(60),
            },
            report: Rule {
                limit: 30,
                window: minutes(15),
                lockout: minutes(5),
                max_lockout: minutes(24 * 60),
            },
            report_space: Rule {
                limit: 300,
                window: minutes(15),
                lockout: minutes(1),
                max_lockout: minutes(60),
            },
        }
    }
}

/// The refusal of a locked-out attempt.
pub fn too_many() -> Error {
    Error::too_many_attempts(m::ACCOUNT_TOO_MANY_ATTEMPTS_WAIT.msg())
}

/// The refusal of an attempt locked out for `seconds` more (answered with `Retry-After`).
pub fn too_many_for(seconds: f64) -> Error {
    Error::locked_out(m::ACCOUNT_TOO_MANY_ATTEMPTS_WAIT.msg(), seconds)
}

/// Counts an attempt of `key`; the seconds its lockout still lasts when it is locked out.
async fn hit_for(pool: &PgPool, key: &str, rule: &Rule) -> Result<Option<f64>> {
    let left = db::throttle::hit(
        pool,
        key,
        rule.limit,
        rule.window.as_secs_f64(),
        rule.lockout.as_secs_f64(),
        rule.max_lockout.as_secs_f64(),
    )
    .await?;
    Ok(left.filter(|secs| *secs > 0.0))
}

/// Counts an attempt of `key`; whether it is locked out.
#[allow(dead_code, reason = "the limiters that answer without Retry-After")]
async fn hit(pool: &PgPool, key: &str, rule: &Rule) -> Result<bool> {
    Ok(hit_for(pool, key, rule).await?.is_some())
}

fn account_key(username: &str) -> String {
    format!("account:{}", username.trim().to_lowercase())
}

fn address_key(ip: IpAddr) -> String {
    format!("address:{ip}")
}

/// Counts a sign-in attempt for the account and the address; `TooManyAttempts` when either
/// is locked out (whether or not the password would be right: no oracle).
pub async fn sign_in_attempt(
    pool: &PgPool,
    limits: &Limits,
    username: &str,
    ip: IpAddr,
) -> Result<()> {
    // Both counters move on every attempt, so a locked account still costs the address.
    let account = hit_for(pool, &account_key(username), &limits.account).await?;
    let address = hit_for(pool, &address_key(ip), &limits.address).await?;
    if let Some(left) = account.into_iter().chain(address).reduce(f64::max) {
        return Err(too_many_for(left));
    }
    Ok(())
}

fn device_key(device_hash: &[u8]) -> String {
    format!("device:{}", hex::encode(device_hash))
}

/// Counts a sign-in attempt from a device that holds a proof of this account (OWASP's device
/// cookie): on the device's own counter, with the account's rule, and on the address; never
/// on the account's, so strangers locking the account out do not lock out this device.
pub async fn device_sign_in_attempt(
    pool: &PgPool,
    limits: &Limits,
    device_hash: &[u8],
    ip: IpAddr,
) -> Result<()> {
    let device = hit(pool, &device_key(device_hash), &limits.account).await?;
    let address = hit(pool, &address_key(ip), &limits.address).await?;
    if device || address {
        return Err(too_many());
    }
    Ok(())
}

/// After a successful sign-in from a known device: the device starts over, the address gets
/// its attempt back (the account's lockout, which strangers may have earned, stays).
pub async fn device_sign_in_succeeded(pool: &PgPool, device_hash: &[u8], ip: IpAddr) -> Result<()> {
    db::throttle::forget(pool, &device_key(device_hash)).await?;
    db::throttle::take_back(pool, &address_key(ip)).await?;
    Ok(())
}

/// Counts a guess of an account's current password when it changes its password (by a
/// session holder): per account (its own counter, so strangers' sign-in guesses do not
/// block the owner's change) with the account's rule, and per address.
pub async fn password_change_attempt(
    pool: &PgPool,
    limits: &Limits,
    user_id: Uuid,
    ip: IpAddr,
) -> Result<()> {
    let account = hit(pool, &format!("password:{user_id}"), &limits.account).await?;
    let address = hit(pool, &address_key(ip), &limits.address).await?;
    if account || address {
        return Err(too_many());
    }
    Ok(())
}

/// The right current password: the account's password-change counter starts over.
pub async fn password_change_succeeded(pool: &PgPool, user_id: Uuid, ip: IpAddr) -> Result<()> {
    db::throttle::forget(pool, &format!("password:{user_id}")).await?;
    db::throttle::take_back(pool, &address_key(ip)).await?;
    Ok(())
}

/// Counts an attempt to use a secret link (invitation, password reset) from `ip`. The links'
/// tokens are 256-bit, so this only keeps one address from hammering them; it is not per
/// account, so a venue's newcomers joining at once do not lock each other out.
pub async fn link_attempt(pool: &PgPool, limits: &Limits, ip: IpAddr) -> Result<()> {
    if let Some(left) = hit_for(pool, &address_key(ip), &limits.address).await? {
        return Err(too_many_for(left));
    }
    Ok(())
}

/// After a successful sign-in: the account starts over, the address gets its attempt back.
pub async fn sign_in_succeeded(pool: &PgPool, username: &str, ip: IpAddr) -> Result<()> {
    db::throttle::forget(pool, &account_key(username)).await?;
    db::throttle::take_back(pool, &address_key(ip)).await?;
    Ok(())
}

/// Counts a registration from `ip` for `section_id`; `TooManyAttempts` over the limit.
pub async fn registration_attempt(
    pool: &PgPool,
    limits: &Limits,
    ip: IpAddr,
    section_id: Uuid,
) -> Result<()> {
    if let Some(left) = hit_for(
        pool,
        &format!("register:{ip}:{section_id}"),
        &limits.registration,
    )
    .await?
    {
        return Err(too_many_for(left));
    }
    Ok(())
}

/// The guesser an address stands for: an IPv4 address (also when mapped into IPv6), or an
/// IPv6 address's /64 prefix, which one subscriber holds whole and can rotate through.
fn guesser(ip: IpAddr) -> String {
    match ip {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => v4.to_string(),
            None => {
                let s = v6.segments();
                format!("{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
            }
        },
    }
}

fn report_key(ip: IpAddr) -> String {
    format!("report:{}", guesser(ip))
}

/// The counter of wrong keys and codes from every address together.
const REPORT_SPACE_KEY: &str = "report-space";

/// Counts a wrong key or report code from `ip`, on the address's counter and on the key
/// space's; `TooManyAttempts` while either is locked out. Callers count only a guess that
/// opened nothing: a right key or code is never refused for others' guesses.
pub async fn report_attempt(pool: &PgPool, limits: &Limits, ip: IpAddr) -> Result<()> {
    let address = hit_for(pool, &report_key(ip), &limits.report).await?;
    let space = hit_for(pool, REPORT_SPACE_KEY, &limits.report_space).await?;
    if let Some(left) = address.into_iter().chain(space).reduce(f64::max) {
        return Err(too_many_for(left));
    }
    Ok(())
}

/// A right code: the address gets its attempt back.
pub async fn report_succeeded(pool: &PgPool, ip: IpAddr) -> Result<()> {
    db::throttle::take_back(pool, &report_key(ip)).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::guesser;
    use std::net::IpAddr;

    fn of(ip: &str) -> String {
        guesser(ip.parse::<IpAddr>().expect("address"))
    }

    #[test]
    fn an_ipv6_subscriber_is_one_guesser_for_its_whole_prefix() {
        assert_eq!(of("2001:db8:1:2:aaaa::1"), of("2001:db8:1:2:ffff:1:2:3"));
        assert_ne!(of("2001:db8:1:2::1"), of("2001:db8:1:3::1"));
        assert_eq!(of("2001:db8:1:2::1"), "2001:db8:1:2::/64");
    }

    #[test]
    fn ipv4_is_one_guesser_per_address_also_when_mapped() {
        assert_eq!(of("192.0.2.7"), "192.0.2.7");
        assert_eq!(of("::ffff:192.0.2.7"), "192.0.2.7");
        assert_ne!(of("192.0.2.7"), of("192.0.2.8"));
    }
}
