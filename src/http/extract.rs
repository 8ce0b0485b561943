//! Extractors whose rejections use our error formats instead of axum's plain text, so a
//! malformed body or a bad UUID in a path gets a 4xx with a message: JSON for the API
//! (`AppJson`, `AppPath`, `AppQuery`, `AppBytes`), an HTML page for forms (`AppForm`).

use super::error::ApiError;
use super::pages::{session, LangPrefs, PageError};
use crate::i18n::{Lang, Tr};
use axum::body::Bytes;
use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};
use axum::extract::FromRequest;
use axum::extract::FromRequestParts;
use axum::extract::Request;
use axum::http::header::CONTENT_TYPE;
use axum::http::StatusCode;

/// `Json<T>` with our rejection.
#[derive(Debug, FromRequest)]
#[from_request(via(axum::Json), rejection(ApiError))]
pub struct AppJson<T>(pub T);

impl<T: serde::Serialize> axum::response::IntoResponse for AppJson<T> {
    fn into_response(self) -> axum::response::Response {
        axum::Json(self.0).into_response()
    }
}

/// `Path<T>` with our rejection.
#[derive(Debug, FromRequestParts)]
#[from_request(via(axum::extract::Path), rejection(ApiError))]
pub struct AppPath<T>(pub T);

/// `Query<T>` with our rejection.
#[derive(Debug, FromRequestParts)]
#[from_request(via(axum::extract::Query), rejection(ApiError))]
pub struct AppQuery<T>(pub T);

/// A raw body (TRF, CSV files) with our rejection: a body over the limit gets a JSON 413.
#[derive(Debug)]
pub struct AppBytes(pub Bytes);

impl<S: Send + Sync> FromRequest<S> for AppBytes {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        Bytes::from_request(request, state)
            .await
            .map(AppBytes)
            .map_err(|rejection| {
                ApiError::new(
                    rejection.status(),
                    format!("cannot read the body: {}", rejection.body_text()),
                )
            })
    }
}

impl From<JsonRejection> for ApiError {
    fn from(rejection: JsonRejection) -> ApiError {
        // axum's own choice: 415 without the JSON content type, 422 for JSON of the wrong
        // shape, 413 over the body limit, 400 for the rest.
        let status = rejection.status();
        ApiError::new(
            status,
            format!("invalid JSON body: {}", rejection.body_text()),
        )
    }
}

impl From<PathRejection> for ApiError {
    fn from(rejection: PathRejection) -> ApiError {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            format!("invalid path: {}", rejection.body_text()),
        )
    }
}

impl From<QueryRejection> for ApiError {
    fn from(rejection: QueryRejection) -> ApiError {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            format!("invalid query string: {}", rejection.body_text()),
        )
    }
}

/// A form posted from one of our pages (`application/x-www-form-urlencoded`). The CSRF token in
/// field `csrf` is checked first (403 page otherwise), then the body is read into `T` (an
/// HTML 400/413/415/422 page otherwise). `T` may ignore the `csrf` field; it must not use
/// `deny_unknown_fields`.
#[derive(Debug)]
pub struct AppForm<T>(pub T);

/// Largest form body accepted; our forms are a few fields of text.
const FORM_LIMIT: usize = 256 * 1024;

impl<S: Send + Sync, T: serde::de::DeserializeOwned> FromRequest<S> for AppForm<T> {
    type Rejection = PageError;

    async fn from_request(request: Request, _state: &S) -> Result<Self, Self::Rejection> {
        #[derive(serde::Deserialize)]
        struct CsrfField {
            csrf: Option<String>,
        }
        let (parts, body) = request.into_parts();
        let lang = LangPrefs::from_parts(&parts).resolve(Lang::ZhHant);
        let tr = Tr { lang };
        let is_form = parts
            .headers
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(';').next())
            .is_some_and(|v| {
                v.trim()
                    .eq_ignore_ascii_case("application/x-www-form-urlencoded")
            });
        if !is_form {
            return Err(PageError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                lang,
                "error.bad_form",
                tr.t("error.form_content_type"),
            ));
        }
        let bytes = axum::body::to_bytes(body, FORM_LIMIT).await.map_err(|_| {
            PageError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                lang,
                "error.bad_form",
                tr.t("error.form_too_large"),
            )
        })?;
        let csrf = serde_urlencoded::from_bytes::<CsrfField>(&bytes)
            .ok()
            .and_then(|f| f.csrf)
            .unwrap_or_default();
        if !session::csrf_matches(&parts, &csrf) {
            return Err(PageError::new(
                StatusCode::FORBIDDEN,
                lang,
                "error.forbidden",
                tr.t("error.csrf"),
            ));
        }
        serde_urlencoded::from_bytes::<T>(&bytes)
            .map(AppForm)
            .map_err(|err| {
                PageError::new(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    lang,
                    "error.bad_form",
                    format!("{}: {err}", tr.t("error.form_invalid")),
                )
            })
    }
}

/// `Path<T>` for pages: a malformed id in the URL (not a UUID, a round that is not a number)
/// names a page that does not exist, so it answers the HTML 404 page.
#[derive(Debug)]
pub struct PagePath<T>(pub T);

impl<S: Send + Sync, T: serde::de::DeserializeOwned + Send> FromRequestParts<S> for PagePath<T> {
    type Rejection = PageError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &S,
    ) -> Result<Self, Self::Rejection> {
        match axum::extract::Path::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Path(value)) => Ok(PagePath(value)),
            Err(rejection) => {
                tracing::debug!(%rejection, "page path rejected");
                let lang = LangPrefs::from_parts(parts).resolve(Lang::ZhHant);
                Err(PageError::new(
                    StatusCode::NOT_FOUND,
                    lang,
                    "error.not_found",
                    "",
                ))
            }
        }
    }
}
