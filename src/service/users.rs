//! Accounts: creation and password checks (argon2id).

use super::{Error, Result};
use crate::db;
use argon2::password_hash::{
    rand_core::OsRng, PasswordHash, PasswordHasher, PasswordVerifier, SaltString,
};
use argon2::Argon2;
use sqlx::PgPool;
use uuid::Uuid;

/// Hashes a password with argon2id and a random salt (PHC string).
pub fn hash_password(password: &str) -> Result<String> {
    let salt = SaltString::generate(&mut OsRng);
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|hash| hash.to_string())
        .map_err(|e| Error::Internal(format!("password hashing failed: {e}")))
}

/// Checks a password against a stored PHC string.
pub fn verify_password(password: &str, phc: &str) -> bool {
    PasswordHash::new(phc)
        .map(|parsed| {
            Argon2::default()
                .verify_password(password.as_bytes(), &parsed)
                .is_ok()
        })
        .unwrap_or(false)
}

/// Creates a user with `role` (`admin`, `arbiter`, `scorer`).
pub async fn create_user(
    pool: &PgPool,
    username: &str,
    password: &str,
    role: &str,
) -> Result<Uuid> {
    let username = username.trim();
    if username.is_empty() || username.chars().count() > 64 {
        return Err(Error::invalid("username", "must be 1 to 64 characters"));
    }
    if password.chars().count() < 8 {
        return Err(Error::invalid("password", "must be at least 8 characters"));
    }
    if !matches!(role, "admin" | "arbiter" | "scorer") {
        return Err(Error::invalid("role", "must be admin, arbiter or scorer"));
    }
    let hash = hash_password(password)?;
    match db::user::insert_user(pool, username, &hash, role).await {
        Ok(id) => Ok(id),
        Err(sqlx::Error::Database(e)) if e.constraint() == Some("app_user_username_key") => {
            Err(Error::invalid(
                "username",
                format!("a user named {username:?} already exists"),
            ))
        }
        Err(e) => Err(e.into()),
    }
}

/// Who is acting: a logged-in user.
#[derive(Debug, Clone)]
pub struct Actor {
    /// User id.
    pub user_id: Uuid,
    /// Login name.
    pub username: String,
    /// `admin`, `arbiter` or `scorer`.
    pub role: String,
}

/// How long a login lasts.
const SESSION_HOURS: i32 = 24 * 14;

fn token_hash(token: &str) -> Vec<u8> {
    use sha2::Digest as _;
    sha2::Sha256::digest(token.as_bytes()).to_vec()
}

/// Checks a username and password and opens a session; returns the bearer token.
/// `kind` is `api` or `browser`.
pub async fn login(pool: &PgPool, username: &str, password: &str, kind: &str) -> Result<String> {
    let user = db::user::find_by_username(pool, username.trim()).await?;
    let Some(user) = user.filter(|u| verify_password(password, &u.password_hash)) else {
        return Err(Error::Unauthorized("wrong username or password".into()));
    };
    let mut bytes = [0u8; 32];
    argon2::password_hash::rand_core::RngCore::fill_bytes(&mut OsRng, &mut bytes);
    let token = hex::encode(bytes);
    let mut tx = pool.begin().await?;
    db::user::delete_expired_sessions(&mut *tx).await?;
    db::user::insert_session(
        &mut *tx,
        &token_hash(&token),
        user.user_id,
        kind,
        SESSION_HOURS,
    )
    .await?;
    tx.commit().await?;
    Ok(token)
}

/// The user behind a bearer token, if the token is valid.
pub async fn authenticate(pool: &PgPool, token: &str) -> Result<Option<Actor>> {
    let user = db::user::find_by_session(pool, &token_hash(token)).await?;
    Ok(user.map(|u| Actor {
        user_id: u.user_id,
        username: u.username,
        role: u.role,
    }))
}

/// Ends a session; false when the token had none.
pub async fn logout(pool: &PgPool, token: &str) -> Result<bool> {
    Ok(db::user::delete_session(pool, &token_hash(token)).await?)
}
