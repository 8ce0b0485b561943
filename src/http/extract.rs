//! Extractors whose rejections use our error formats instead of axum's plain text, so a
//! malformed body or a bad UUID in a path gets a 4xx with a message: JSON for the API
//! (`AppJson`, `AppPath`, `AppQuery`, `AppBytes`), an HTML page for forms (`AppForm`).

use super::error::ApiError;
use super::error::PageError;
use super::session;
use crate::i18n::messages as m;
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
                    m::API_UNREADABLE_BODY.with(&[&rejection.body_text()]),
                )
            })
    }
}

impl From<JsonRejection> for ApiError {
    fn from(rejection: JsonRejection) -> ApiError {
        // axum's own choice: 415 without the JSON content type, 422 for JSON of the wrong
        // shape, 413 over the body limit, 400 for the rest.
        let status = rejection.status();
        ApiError::new(status, m::API_INVALID_JSON.with(&[&rejection.body_text()]))
    }
}

impl From<PathRejection> for ApiError {
    fn from(rejection: PathRejection) -> ApiError {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            m::API_INVALID_PATH.with(&[&rejection.body_text()]),
        )
    }
}

impl From<QueryRejection> for ApiError {
    fn from(rejection: QueryRejection) -> ApiError {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            m::API_INVALID_QUERY.with(&[&rejection.body_text()]),
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
        let lang = session::lang_prefs(&parts).resolve(Lang::ZhHant);
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
        if !form_is_utf8(&bytes) {
            // serde_urlencoded would decode invalid bytes to U+FFFD and store "��".
            return Err(PageError::new(
                StatusCode::BAD_REQUEST,
                lang,
                "error.bad_form",
                tr.t("error.form_encoding"),
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

/// Whether every name and value of an urlencoded body decodes to valid UTF-8.
pub fn form_is_utf8(body: &[u8]) -> bool {
    fn hex(b: u8) -> Option<u8> {
        (b as char).to_digit(16).map(|d| d as u8)
    }
    body.split(|&b| b == b'&').all(|pair| {
        let mut decoded = Vec::with_capacity(pair.len());
        let mut i = 0;
        while i < pair.len() {
            match pair[i] {
                b'+' => decoded.push(b' '),
                b'%' if i + 2 < pair.len() => match (hex(pair[i + 1]), hex(pair[i + 2])) {
                    (Some(h), Some(l)) => {
                        decoded.push(h * 16 + l);
                        i += 2;
                    }
                    _ => decoded.push(b'%'),
                },
                b => decoded.push(b),
            }
            i += 1;
        }
        std::str::from_utf8(&decoded).is_ok()
    })
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
                let lang = session::lang_prefs(parts).resolve(Lang::ZhHant);
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

/// A file sent with a form.
#[derive(Debug)]
pub struct Upload {
    /// The file name the browser gave (may be empty).
    pub file_name: String,
    /// The content, at most [`UPLOAD_LIMIT`] bytes.
    pub bytes: Bytes,
    /// The file was larger than [`UPLOAD_LIMIT`] (its content is dropped).
    pub too_large: bool,
}

/// Largest file accepted by an upload form (TRF and CSV files are a few kilobytes).
pub const UPLOAD_LIMIT: usize = 1024 * 1024;

/// A form that may carry a file: `multipart/form-data` (text fields, and the first part with a
/// file name under `file_field`), or an ordinary urlencoded form (no file). The CSRF token in
/// field `csrf` is checked as in [`AppForm`] (403 page). A body beyond the server's limit or a
/// malformed multipart body gets an HTML 4xx page. `LIMIT` is the largest file taken (a
/// whole event's file is far larger than a TRF); the route's body limit must allow it.
#[derive(Debug)]
pub struct UploadForm<const LIMIT: usize = UPLOAD_LIMIT> {
    /// The text fields.
    pub fields: std::collections::HashMap<String, String>,
    /// The file, when one was chosen (a part with an empty file name and no content is none).
    pub file: Option<Upload>,
}

impl<S: Send + Sync, const LIMIT: usize> FromRequest<S> for UploadForm<LIMIT> {
    type Rejection = PageError;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        let (parts, body) = request.into_parts();
        let lang = session::lang_prefs(&parts).resolve(Lang::ZhHant);
        let tr = Tr { lang };
        let multipart = parts
            .headers
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(';').next())
            .is_some_and(|v| v.trim().eq_ignore_ascii_case("multipart/form-data"));
        let request = Request::from_parts(parts.clone(), body);
        if !multipart {
            let AppForm(fields) = AppForm::from_request(request, state).await?;
            return Ok(UploadForm { fields, file: None });
        }
        let bad = |status: StatusCode, key: &str| {
            PageError::new(status, lang, "error.bad_form", tr.fmt(key, LIMIT / 1024))
        };
        let mut reader = axum::extract::Multipart::from_request(request, state)
            .await
            .map_err(|_| bad(StatusCode::BAD_REQUEST, "error.form_invalid"))?;
        let mut fields = std::collections::HashMap::new();
        let mut file = None;
        // A read error is the body limit (413) or a broken body (400).
        let failed = |err: axum::extract::multipart::MultipartError| {
            if err.status() == StatusCode::PAYLOAD_TOO_LARGE {
                bad(StatusCode::PAYLOAD_TOO_LARGE, "adm.import.file_too_large")
            } else {
                bad(StatusCode::BAD_REQUEST, "error.form_invalid")
            }
        };
        while let Some(mut field) = reader.next_field().await.map_err(failed)? {
            let name = field.name().unwrap_or("").to_string();
            match field.file_name().map(str::to_string) {
                Some(file_name) => {
                    let mut bytes = Vec::new();
                    let mut too_large = false;
                    while let Some(chunk) = field.chunk().await.map_err(failed)? {
                        if bytes.len() + chunk.len() > LIMIT {
                            too_large = true;
                            bytes.clear();
                            // The rest of the part is skipped by the next `next_field`.
                            break;
                        }
                        bytes.extend_from_slice(&chunk);
                    }
                    let chosen = !file_name.is_empty() || !bytes.is_empty() || too_large;
                    if file.is_none() && chosen {
                        file = Some(Upload {
                            file_name,
                            bytes: Bytes::from(bytes),
                            too_large,
                        });
                    }
                }
                None => {
                    let text = field.text().await.map_err(failed)?;
                    fields.insert(name, text);
                }
            }
        }
        let csrf = fields.get("csrf").map(String::as_str).unwrap_or("");
        if !session::csrf_matches(&parts, csrf) {
            return Err(PageError::new(
                StatusCode::FORBIDDEN,
                lang,
                "error.forbidden",
                tr.t("error.csrf"),
            ));
        }
        Ok(UploadForm { fields, file })
    }
}

impl Upload {
    /// The file as text: UTF-8 (a byte-order mark dropped). Otherwise the catalogue key of
    /// the reason: too large, empty, not text (binary, or another encoding).
    pub fn text(&self) -> Result<String, &'static str> {
        self.checked_bytes()
            .map(|bytes| String::from_utf8_lossy(bytes).into_owned())
    }

    /// [`Upload::text`]'s checks without a copy: the UTF-8 bytes (a byte-order mark dropped).
    pub fn checked_bytes(&self) -> Result<&[u8], &'static str> {
        if self.too_large {
            return Err("adm.import.file_too_large");
        }
        let bytes = self
            .bytes
            .strip_prefix(b"\xEF\xBB\xBF")
            .unwrap_or(&self.bytes);
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Err("adm.import.file_empty");
        }
        match std::str::from_utf8(bytes) {
            // A NUL byte means a binary file (a spreadsheet, an image), not CSV or TRF text.
            Ok(text) if !text.contains('\0') => Ok(bytes),
            _ => Err("adm.import.file_not_text"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::form_is_utf8;

    #[test]
    fn form_bodies_must_decode_to_utf8() {
        assert!(form_is_utf8(b"name=%E7%8E%8B&club=a+b&x=%"));
        assert!(form_is_utf8(b"name=100%25&empty="));
        assert!(!form_is_utf8(b"name=%FF%FE"));
        assert!(!form_is_utf8(b"ok=1&club=%E7%8E"));
        assert!(!form_is_utf8(b"n\xffame=x"));
    }
}
