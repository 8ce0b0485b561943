//! Accounts (SPEC §13): creation, sign-in (argon2id, limited, constant-time), sessions, and
//! the admins' user management. Every change is audited.

use super::throttle::{self, Limits};
use super::{Error, Result};
use crate::db;
use crate::i18n::messages as m;
use crate::vocab::{StaffRole, UserRole};
use argon2::password_hash::{
    rand_core::OsRng, PasswordHash, PasswordHasher, PasswordVerifier, SaltString,
};
use argon2::Argon2;
use serde::{Deserialize, Serialize};
use serde_json::json;
use sqlx::{PgConnection, PgPool};
use std::net::{IpAddr, Ipv6Addr};
use std::sync::OnceLock;
use tokio::sync::{OnceCell, Semaphore};
use utoipa::ToSchema;
use uuid::Uuid;

/// Hashes a password with argon2id and a random salt (PHC string). CPU-heavy: call
/// [`hash_password_blocking`] from async code.
pub fn hash_password(password: &str) -> Result<String> {
    let salt = SaltString::generate(&mut OsRng);
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|hash| hash.to_string())
        .map_err(|e| Error::Internal(format!("password hashing failed: {e}")))
}

/// Checks a password against a stored PHC string. CPU-heavy: call [`verify_password_blocking`]
/// from async code.
pub fn verify_password(password: &str, phc: &str) -> bool {
    PasswordHash::new(phc)
        .map(|parsed| {
            Argon2::default()
                .verify_password(password.as_bytes(), &parsed)
                .is_ok()
        })
        .unwrap_or(false)
}

/// argon2 runs on the blocking pool, a few at a time: a flood of guesses waits here instead of
/// occupying the async workers (which would stall every other request, /healthz included).
fn hashing_permits() -> &'static Semaphore {
    static PERMITS: OnceLock<Semaphore> = OnceLock::new();
    PERMITS.get_or_init(|| {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        Semaphore::new((cores / 2).clamp(1, 4))
    })
}

async fn on_hashing_pool<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T> {
    let _permit = hashing_permits()
        .acquire()
        .await
        .map_err(|e| Error::Internal(format!("hashing pool closed: {e}")))?;
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| Error::Internal(format!("password hashing task failed: {e}")))
}

/// [`hash_password`] on the blocking pool.
pub async fn hash_password_blocking(password: &str) -> Result<String> {
    let password = password.to_string();
    on_hashing_pool(move || hash_password(&password)).await?
}

/// [`verify_password`] on the blocking pool.
pub async fn verify_password_blocking(password: &str, phc: &str) -> Result<bool> {
    let (password, phc) = (password.to_string(), phc.to_string());
    on_hashing_pool(move || verify_password(&password, &phc)).await
}

/// A hash of a random password with the real parameters: an unknown username is checked
/// against it, so it costs as much time as a known one.
async fn dummy_hash() -> Result<&'static str> {
    static DUMMY: OnceCell<String> = OnceCell::const_new();
    let hash = DUMMY
        .get_or_try_init(|| async {
            let mut bytes = [0u8; 16];
            argon2::password_hash::rand_core::RngCore::fill_bytes(&mut OsRng, &mut bytes);
            hash_password_blocking(&hex::encode(bytes)).await
        })
        .await?;
    Ok(hash.as_str())
}

/// Checks a new password: 8 to 1,024 characters.
pub fn check_new_password(field: &str, password: &str) -> Result<()> {
    let length = password.chars().count();
    if length < 8 {
        return Err(Error::invalid(
            field,
            m::ACCOUNT_MUST_LEAST_8_CHARACTERS.msg(),
        ));
    }
    if length > 1024 {
        return Err(Error::invalid(field, m::CHECK_TOO_LONG.with(&[&1024])));
    }
    Ok(())
}

/// Checks a username (`arbiter_core::text::username`): the human-text rules, 1 to 64
/// characters, no spaces and no invisible or formatting characters; returns it trimmed, in
/// NFC.
pub fn check_username(username: &str) -> Result<String> {
    use arbiter_core::text::{TextError, UsernameError};
    arbiter_core::text::username(username).map_err(|e| {
        let message = match &e {
            UsernameError::Text(TextError::Empty | TextError::TooLong(_)) => {
                m::ACCOUNT_MUST_1_64_CHARACTERS.msg()
            }
            UsernameError::Text(TextError::Control(_)) => m::ACCOUNT_MUST_NOT_CONTAIN_CONTROL.msg(),
            UsernameError::Text(other) => super::check::text_error(other),
            UsernameError::Invisible(found) => m::ACCOUNT_USERNAME_NO_INVISIBLE.with(&[found]),
        };
        Error::invalid("username", message)
    })
}

/// Refuses `username` when an account's name looks the same (the same UTS #39 skeleton:
/// `ChiefA` beside `chiefA`, a Cyrillic а beside a Latin a). New names are checked one at a
/// time (a transaction-level lock), so two look-alikes made at once cannot both pass.
async fn check_unlike_others(conn: &mut PgConnection, username: &str) -> Result<()> {
    sqlx::query("select pg_advisory_xact_lock(hashtext('arbiter.username_skeleton'))")
        .execute(&mut *conn)
        .await?;
    let skeleton = arbiter_core::text::username_skeleton(username);
    let names: Vec<String> = sqlx::query_scalar("select username from app_user")
        .fetch_all(&mut *conn)
        .await?;
    if names
        .iter()
        .any(|n| arbiter_core::text::username_skeleton(n) == skeleton)
    {
        return Err(Error::invalid(
            "username",
            m::ACCOUNT_USER_NAMED_ALREADY_EXISTS.with(&[&format!("{:?}", username)]),
        ));
    }
    Ok(())
}

fn check_account_role(role: &str) -> Result<UserRole> {
    role.parse()
        .map_err(|_| Error::invalid("role", m::ACCOUNT_MUST_ADMIN_USER.msg()))
}

/// Who is acting: a logged-in user.
#[derive(Debug, Clone)]
pub struct Actor {
    /// User id.
    pub user_id: Uuid,
    /// Login name.
    pub username: String,
    /// Admin or user (what a user may do in a tournament is its staff role).
    pub role: UserRole,
    /// The session the request came with (None outside a request).
    pub session_id: Option<Uuid>,
}

impl Actor {
    /// Whether the actor is an admin.
    pub fn is_admin(&self) -> bool {
        self.role == UserRole::Admin
    }
}

/// Appends an audit event about an account (no tournament).
pub(crate) async fn audit_account(
    conn: &mut PgConnection,
    actor: Option<&Actor>,
    action: &str,
    user_id: Uuid,
    after: Option<serde_json::Value>,
) -> Result<()> {
    db::audit::insert(
        conn,
        db::audit::NewAuditEvent {
            tournament_id: None,
            user_id: actor.map(|a| a.user_id),
            actor: actor.map_or("command line", |a| a.username.as_str()),
            action,
            entity: "user",
            entity_id: Some(user_id),
            before: None,
            after,
        },
    )
    .await?;
    Ok(())
}

/// Inserts a user in the caller's transaction, mapping a taken name to a field error.
pub(crate) async fn insert_checked(
    conn: &mut PgConnection,
    username: &str,
    password: &str,
    role: &str,
) -> Result<Uuid> {
    let username = check_username(username)?;
    check_new_password("password", password)?;
    let role = check_account_role(role)?;
    check_unlike_others(&mut *conn, &username).await?;
    let hash = hash_password_blocking(password).await?;
    match db::user::insert_user(&mut *conn, &username, &hash, role).await {
        Ok(id) => Ok(id),
        Err(sqlx::Error::Database(e)) if e.constraint() == Some("app_user_username_key") => {
            Err(Error::invalid(
                "username",
                m::ACCOUNT_USER_NAMED_ALREADY_EXISTS.with(&[&format!("{:?}", username)]),
            ))
        }
        Err(e) => Err(e.into()),
    }
}

/// Creates a user with `role` (`admin` or `user`) from the command line (audited as such).
pub async fn create_user(
    pool: &PgPool,
    username: &str,
    password: &str,
    role: &str,
) -> Result<Uuid> {
    let mut tx = pool.begin().await?;
    let id = insert_checked(&mut tx, username, password, role).await?;
    let after = json!({"username": username.trim(), "role": role});
    audit_account(&mut tx, None, "create", id, Some(after)).await?;
    tx.commit().await?;
    Ok(id)
}

/// How long a login lasts.
const SESSION_HOURS: i32 = 24 * 14;

pub(crate) fn token_hash(token: &str) -> Vec<u8> {
    use sha2::Digest as _;
    sha2::Sha256::digest(token.as_bytes()).to_vec()
}

/// A random 256-bit token, hex encoded.
pub(crate) fn random_token() -> String {
    let mut bytes = [0u8; 32];
    argon2::password_hash::rand_core::RngCore::fill_bytes(&mut OsRng, &mut bytes);
    hex::encode(bytes)
}

/// Who signs in, from where.
#[derive(Debug, Clone, Copy)]
pub struct SignIn<'a> {
    /// The limits.
    pub limits: &'a Limits,
    /// The client's address.
    pub ip: IpAddr,
    /// `api` or `browser`.
    pub kind: &'a str,
}

/// Checks a username and password and opens a session; returns the bearer token.
///
/// The attempt is counted first (per account and per address; `TooManyAttempts` during a
/// lockout, the right password too). An unknown or disabled user costs the same argon2 work
/// as a wrong password, so the answer time does not tell which names exist.
pub async fn sign_in(
    pool: &PgPool,
    how: SignIn<'_>,
    username: &str,
    password: &str,
) -> Result<String> {
    Ok(sign_in_from_device(pool, how, username, password, None)
        .await?
        .token)
}

/// A session opened, with the device's proof.
#[derive(Debug, Clone)]
pub struct SignedIn {
    /// The bearer token (or session cookie).
    pub token: String,
    /// The device proof to present at the next sign-in (the one given, when it was good).
    pub device: String,
}

/// [`sign_in`] with OWASP's device cookie: `device` is the proof a former sign-in of this
/// account gave this device, if the client has one. With a good proof the attempt counts on
/// the device's own counter instead of the account's, so an account locked out by
/// strangers' guesses still opens from its owner's devices (each limited all the same);
/// without one it counts on the account. A successful sign-in without a good proof gets a
/// new one.
pub async fn sign_in_from_device(
    pool: &PgPool,
    how: SignIn<'_>,
    username: &str,
    password: &str,
    device: Option<&str>,
) -> Result<SignedIn> {
    let username = username.trim();
    let user = db::user::find_by_username(pool, username).await?;
    let device_hash = device
        .filter(|d| d.len() == 64 && d.bytes().all(|b| b.is_ascii_hexdigit()))
        .map(token_hash);
    let known_device = match (&device_hash, &user) {
        (Some(hash), Some(user)) => {
            db::throttle::device_owner(pool, hash).await? == Some(user.user_id)
        }
        _ => false,
    };
    match (&device_hash, known_device) {
        (Some(hash), true) => {
            throttle::device_sign_in_attempt(pool, how.limits, hash, how.ip).await?
        }
        _ => throttle::sign_in_attempt(pool, how.limits, username, how.ip).await?,
    }
    let phc = match &user {
        Some(user) => user.password_hash.as_str(),
        None => dummy_hash().await?,
    };
    let matches = verify_password_blocking(password, phc).await?;
    let Some(user) = user.filter(|u| matches && !u.disabled) else {
        return Err(Error::unauthorized(m::ACCESS_WRONG_USERNAME_PASSWORD.msg()));
    };
    let device = match (device_hash, known_device, device) {
        (Some(hash), true, Some(device)) => {
            throttle::device_sign_in_succeeded(pool, &hash, how.ip).await?;
            device.to_string()
        }
        _ => {
            throttle::sign_in_succeeded(pool, username, how.ip).await?;
            let device = random_token();
            db::throttle::insert_device(pool, &token_hash(&device), user.user_id).await?;
            device
        }
    };
    let token = random_token();
    let mut tx = pool.begin().await?;
    db::user::delete_expired_sessions(&mut *tx).await?;
    db::user::insert_session(
        &mut *tx,
        &token_hash(&token),
        user.user_id,
        how.kind,
        SESSION_HOURS,
    )
    .await?;
    tx.commit().await?;
    Ok(SignedIn { token, device })
}

/// [`sign_in`] with the default limits from no address (tools and tests).
pub async fn login(pool: &PgPool, username: &str, password: &str, kind: &str) -> Result<String> {
    let limits = Limits::default();
    let how = SignIn {
        limits: &limits,
        ip: IpAddr::V6(Ipv6Addr::UNSPECIFIED),
        kind,
    };
    sign_in(pool, how, username, password).await
}

/// How long this process believes a session it read from the database. Another instance's
/// logout or disabling takes effect here within it; this process's own at once
/// ([`forget_sessions`]). Results come in hundreds a second from a few desks' tokens: each
/// would otherwise cost a query before its own.
pub const SESSION_TTL: std::time::Duration = std::time::Duration::from_millis(1000);

/// Valid sessions read lately, by token hash, with when they were read.
fn known_sessions() -> &'static quick_cache::sync::Cache<Vec<u8>, (std::time::Instant, Actor)> {
    static SESSIONS: OnceLock<quick_cache::sync::Cache<Vec<u8>, (std::time::Instant, Actor)>> =
        OnceLock::new();
    SESSIONS.get_or_init(|| quick_cache::sync::Cache::new(10_000))
}

/// Forgets every session this process remembers; called after each change that ends
/// sessions, disables an account or changes its role, once it is committed.
fn forget_sessions() {
    known_sessions().clear();
}

/// The user behind a bearer token, if the token is valid and the account enabled.
pub async fn authenticate(pool: &PgPool, token: &str) -> Result<Option<Actor>> {
    let hash = token_hash(token);
    if let Some((read, actor)) = known_sessions().get(&hash) {
        if read.elapsed() < SESSION_TTL {
            return Ok(Some(actor));
        }
    }
    let read = std::time::Instant::now();
    let found = db::user::find_by_session(pool, &hash).await?;
    let actor = found.map(|(u, session_id)| Actor {
        user_id: u.user_id,
        username: u.username,
        role: u.role,
        session_id: Some(session_id),
    });
    if let Some(actor) = &actor {
        known_sessions().insert(hash, (read, actor.clone()));
    }
    Ok(actor)
}

/// Ends a session; false when the token had none.
pub async fn logout(pool: &PgPool, token: &str) -> Result<bool> {
    let ended = db::user::delete_session(pool, &token_hash(token)).await?;
    forget_sessions();
    Ok(ended)
}

/// An account as the API shows it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct UserView {
    /// Id.
    pub id: Uuid,
    /// Login name.
    pub username: String,
    /// `admin` or `user`.
    pub role: UserRole,
    /// Whether the account is disabled.
    pub disabled: bool,
    /// When it was made.
    pub created_at: chrono::DateTime<chrono::Utc>,
}

impl From<db::user::UserRow> for UserView {
    fn from(row: db::user::UserRow) -> UserView {
        UserView {
            id: row.user_id,
            username: row.username,
            role: row.role,
            disabled: row.disabled,
            created_at: row.created_at,
        }
    }
}

/// A new account (admins only).
#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct NewUser {
    /// Login name, 1 to 64 characters.
    pub username: String,
    /// Password, at least 8 characters. Prefer an invitation link, so nobody types a password
    /// for someone else.
    pub password: String,
    /// `admin` or `user` (default).
    #[serde(default)]
    pub role: Option<String>,
}

/// A change of an account by an admin.
#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct UserPatch {
    /// Disable (true) or re-enable (false).
    #[serde(default)]
    pub disabled: Option<bool>,
    /// `admin` or `user`.
    #[serde(default)]
    pub role: Option<String>,
}

fn require_admin(actor: &Actor) -> Result<()> {
    if actor.is_admin() {
        Ok(())
    } else {
        Err(Error::forbidden(m::ACCOUNT_ONLY_ADMINS_MANAGE_USERS.msg()))
    }
}

/// Every account (admins only).
pub async fn list_users(pool: &PgPool, actor: &Actor) -> Result<Vec<UserView>> {
    require_admin(actor)?;
    Ok(db::user::list(pool)
        .await?
        .into_iter()
        .map(UserView::from)
        .collect())
}

/// Creates an account (admins only).
pub async fn create_user_as(pool: &PgPool, actor: &Actor, input: &NewUser) -> Result<UserView> {
    require_admin(actor)?;
    let role = input.role.as_deref().unwrap_or("user");
    let mut tx = pool.begin().await?;
    let id = insert_checked(&mut tx, &input.username, &input.password, role).await?;
    let after = json!({"username": input.username.trim(), "role": role});
    audit_account(&mut tx, Some(actor), "create", id, Some(after)).await?;
    let row = db::user::find(&mut *tx, id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_USER))?;
    tx.commit().await?;
    Ok(row.into())
}

/// Disables or re-enables an account, or changes its role (admins only). The last enabled
/// admin can be neither disabled nor made a user. Disabling ends the account's sessions.
pub async fn update_user(
    pool: &PgPool,
    actor: &Actor,
    user_id: Uuid,
    patch: &UserPatch,
) -> Result<UserView> {
    require_admin(actor)?;
    let role = patch.role.as_deref().map(check_account_role).transpose()?;
    let mut tx = pool.begin().await?;
    let admins = db::user::lock_active_admins(&mut *tx).await?;
    let user = db::user::find_for_update(&mut *tx, user_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_USER))?;
    let loses_admin = user.role == UserRole::Admin
        && !user.disabled
        && (patch.disabled == Some(true) || role == Some(UserRole::User));
    if loses_admin && admins <= 1 {
        return Err(Error::conflict(m::ACCOUNT_LAST_ADMIN_CANNOT_DISABLED.msg()));
    }
    if let Some(disabled) = patch.disabled {
        db::user::set_disabled(&mut *tx, user_id, disabled).await?;
        if disabled {
            db::user::delete_sessions(&mut *tx, user_id, None).await?;
        }
        let action = if disabled { "disable" } else { "enable" };
        audit_account(&mut tx, Some(actor), action, user_id, None).await?;
    }
    if let Some(role) = role {
        sqlx::query("update app_user set role = $2 where user_id = $1")
            .bind(user_id)
            .bind(role)
            .execute(&mut *tx)
            .await?;
        let after = json!({"role": role});
        audit_account(&mut tx, Some(actor), "role", user_id, Some(after)).await?;
    }
    let row = db::user::find(&mut *tx, user_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_USER))?;
    tx.commit().await?;
    forget_sessions();
    Ok(row.into())
}

/// Deletes an account nothing refers to (admins only); one that has staffed a tournament or
/// left audit entries is disabled instead (409 says so).
pub async fn delete_user(pool: &PgPool, actor: &Actor, user_id: Uuid) -> Result<()> {
    require_admin(actor)?;
    let mut tx = pool.begin().await?;
    let admins = db::user::lock_active_admins(&mut *tx).await?;
    let user = db::user::find_for_update(&mut *tx, user_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_USER))?;
    if user.role == UserRole::Admin && !user.disabled && admins <= 1 {
        return Err(Error::conflict(m::ACCOUNT_LAST_ADMIN_CANNOT_DELETED.msg()));
    }
    if db::user::is_referenced(&mut *tx, user_id).await? {
        return Err(Error::conflict(
            m::ACCOUNT_USER_HAS_STAFFED_TOURNAMENTS.msg(),
        ));
    }
    // Audited first: the event must not refer to the row it outlives.
    let after = json!({"username": user.username});
    db::audit::insert(
        &mut *tx,
        db::audit::NewAuditEvent {
            tournament_id: None,
            user_id: Some(actor.user_id),
            actor: &actor.username,
            action: "delete",
            entity: "user",
            entity_id: Some(user_id),
            before: Some(after),
            after: None,
        },
    )
    .await?;
    db::user::delete(&mut *tx, user_id).await?;
    tx.commit().await?;
    forget_sessions();
    Ok(())
}

/// Sets a user's password from the command line; the user's sessions end.
pub async fn set_password_by_name(pool: &PgPool, username: &str, password: &str) -> Result<()> {
    check_new_password("password", password)?;
    let hash = hash_password_blocking(password).await?;
    let mut tx = pool.begin().await?;
    let user = db::user::find_by_username(&mut *tx, username.trim())
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_USER))?;
    db::user::set_password(&mut *tx, user.user_id, &hash).await?;
    db::user::delete_sessions(&mut *tx, user.user_id, None).await?;
    audit_account(&mut tx, None, "password", user.user_id, None).await?;
    tx.commit().await?;
    forget_sessions();
    Ok(())
}

/// A change of one's own password.
#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct PasswordChange {
    /// The password now.
    pub current_password: String,
    /// The new password, at least 8 characters.
    pub new_password: String,
}

/// Changes the actor's own password (the current one must be given); every other session of
/// the account ends.
///
/// Guesses of the current password are limited like sign-ins ([`throttle::password_change_attempt`]:
/// `TooManyAttempts` past the account's rule, the right password too), so a stolen session
/// cannot try passwords without end.
pub async fn change_own_password(
    pool: &PgPool,
    how: SignIn<'_>,
    actor: &Actor,
    change: &PasswordChange,
) -> Result<()> {
    check_new_password("new_password", &change.new_password)?;
    let user = db::user::find(pool, actor.user_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_USER))?;
    throttle::password_change_attempt(pool, how.limits, actor.user_id, how.ip).await?;
    if !verify_password_blocking(&change.current_password, &user.password_hash).await? {
        return Err(Error::invalid(
            "current_password",
            m::ACCOUNT_NOT_YOUR_PASSWORD.msg(),
        ));
    }
    throttle::password_change_succeeded(pool, actor.user_id, how.ip).await?;
    let hash = hash_password_blocking(&change.new_password).await?;
    let mut tx = pool.begin().await?;
    db::user::set_password(&mut *tx, actor.user_id, &hash).await?;
    db::user::delete_sessions(&mut *tx, actor.user_id, actor.session_id).await?;
    audit_account(&mut tx, Some(actor), "password", actor.user_id, None).await?;
    tx.commit().await?;
    forget_sessions();
    Ok(())
}

/// One of the actor's tournaments and the role there.
#[derive(Debug, Clone, Serialize, ToSchema, sqlx::FromRow)]
pub struct Assignment {
    /// Tournament id.
    pub tournament_id: Uuid,
    /// Tournament name.
    pub tournament_name: String,
    /// `chief_arbiter`, `arbiter` or `scorer`.
    pub role: StaffRole,
}

/// The signed-in user and their assignments.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Me {
    /// The account.
    pub user: UserView,
    /// Tournaments the user staffs.
    pub assignments: Vec<Assignment>,
}

/// The actor's account and assignments.
pub async fn me(pool: &PgPool, actor: &Actor) -> Result<Me> {
    let user = db::user::find(pool, actor.user_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_USER))?;
    let assignments = sqlx::query_as::<_, Assignment>(
        "select s.tournament_id, t.name as tournament_name, s.role
         from tournament_staff s join tournament t using (tournament_id)
         where s.user_id = $1 order by t.created_at desc",
    )
    .bind(actor.user_id)
    .fetch_all(pool)
    .await?;
    Ok(Me {
        user: user.into(),
        assignments,
    })
}

/// A session as its owner sees it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SessionView {
    /// Id (for revoking it).
    pub id: Uuid,
    /// `api` or `browser`.
    pub kind: String,
    /// Opened.
    pub created_at: chrono::DateTime<chrono::Utc>,
    /// Ends.
    pub expires_at: chrono::DateTime<chrono::Utc>,
    /// Whether this request came with it.
    pub current: bool,
}

/// The actor's live sessions.
pub async fn list_sessions(pool: &PgPool, actor: &Actor) -> Result<Vec<SessionView>> {
    Ok(db::user::list_sessions(pool, actor.user_id)
        .await?
        .into_iter()
        .map(|s| SessionView {
            id: s.session_id,
            kind: s.kind,
            created_at: s.created_at,
            expires_at: s.expires_at,
            current: Some(s.session_id) == actor.session_id,
        })
        .collect())
}

/// Ends one of the actor's sessions.
pub async fn revoke_session(pool: &PgPool, actor: &Actor, session_id: Uuid) -> Result<()> {
    let mut tx = pool.begin().await?;
    if !db::user::delete_session_by_id(&mut *tx, actor.user_id, session_id).await? {
        return Err(Error::NotFound(m::NOT_FOUND_SESSION));
    }
    let after = json!({"session": session_id});
    audit_account(&mut tx, Some(actor), "logout", actor.user_id, Some(after)).await?;
    tx.commit().await?;
    forget_sessions();
    Ok(())
}

/// Ends every session of the actor, the current one too ("log out everywhere").
pub async fn revoke_all_sessions(pool: &PgPool, actor: &Actor) -> Result<u64> {
    let mut tx = pool.begin().await?;
    let ended = db::user::delete_sessions(&mut *tx, actor.user_id, None).await?;
    audit_account(
        &mut tx,
        Some(actor),
        "logout_everywhere",
        actor.user_id,
        None,
    )
    .await?;
    tx.commit().await?;
    forget_sessions();
    Ok(ended)
}

/// A password-reset link made by an admin (the token is shown once).
#[derive(Debug, Clone)]
pub struct NewReset {
    /// The token of the link `/reset/{token}`.
    pub token: String,
    /// The link stops working then.
    pub expires_at: chrono::DateTime<chrono::Utc>,
}

/// Makes a single-use link (valid for a day) with which the user sets a new password
/// themself (admins only). Earlier unused links of the user stop working.
pub async fn make_password_reset(pool: &PgPool, actor: &Actor, user_id: Uuid) -> Result<NewReset> {
    require_admin(actor)?;
    let token = random_token();
    let mut tx = pool.begin().await?;
    db::user::find(&mut *tx, user_id)
        .await?
        .ok_or(Error::NotFound(m::NOT_FOUND_USER))?;
    sqlx::query("update password_reset set used_at = now() where user_id = $1 and used_at is null")
        .bind(user_id)
        .execute(&mut *tx)
        .await?;
    let expires_at: chrono::DateTime<chrono::Utc> = sqlx::query_scalar(
        "insert into password_reset (token_hash, user_id, created_by, expires_at)
         values ($1, $2, $3, now() + interval '1 day') returning expires_at",
    )
    .bind(token_hash(&token))
    .bind(user_id)
    .bind(actor.user_id)
    .fetch_one(&mut *tx)
    .await?;
    audit_account(&mut tx, Some(actor), "password_reset", user_id, None).await?;
    tx.commit().await?;
    Ok(NewReset { token, expires_at })
}

/// The account a live reset link is for; `NotFound` when unknown, used or expired.
pub async fn find_password_reset(pool: &PgPool, token: &str) -> Result<String> {
    sqlx::query_scalar::<_, String>(
        "select u.username from password_reset r join app_user u using (user_id)
         where r.token_hash = $1 and r.used_at is null and r.expires_at > now()",
    )
    .bind(token_hash(token))
    .fetch_optional(pool)
    .await?
    .ok_or(Error::NotFound(m::NOT_FOUND_PASSWORD_RESET))
}

/// Uses a reset link: sets the new password and ends every session of the account.
pub async fn use_password_reset(pool: &PgPool, token: &str, password: &str) -> Result<()> {
    check_new_password("password", password)?;
    let hash = hash_password_blocking(password).await?;
    let mut tx = pool.begin().await?;
    // Used in one statement: a link opened twice at once sets one password.
    let user_id: Uuid = sqlx::query_scalar(
        "update password_reset set used_at = now()
         where token_hash = $1 and used_at is null and expires_at > now() returning user_id",
    )
    .bind(token_hash(token))
    .fetch_optional(&mut *tx)
    .await?
    .ok_or(Error::NotFound(m::NOT_FOUND_PASSWORD_RESET))?;
    db::user::set_password(&mut *tx, user_id, &hash).await?;
    db::user::delete_sessions(&mut *tx, user_id, None).await?;
    audit_account(&mut tx, None, "password", user_id, None).await?;
    tx.commit().await?;
    forget_sessions();
    Ok(())
}
