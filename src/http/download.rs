//! Downloads: every export is an attachment with a sensible file name (RFC 6266), an ASCII
//! `filename` for old clients and the full name in UTF-8 as `filename*` (RFC 5987), so a
//! Chinese event's file is saved as `象棋公開賽-A組-standings.csv`, not shown in the browser.

use axum::http::{header, HeaderValue};

/// The `Content-Disposition` of a download named `stem` + `.ext`.
pub fn attachment(stem: &str, ext: &str) -> (header::HeaderName, HeaderValue) {
    let name = format!("{}.{ext}", clean(stem));
    let ascii: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect();
    // Runs of replaced characters read as one.
    let mut fallback = String::new();
    for c in ascii.chars() {
        if !(c == '_' && fallback.ends_with('_')) {
            fallback.push(c);
        }
    }
    let fallback = match fallback.trim_matches(|c| c == '_' || c == '-') {
        f if f.is_empty() || f.starts_with('.') => format!("export.{ext}"),
        f => f.to_string(),
    };
    let encoded: String = name
        .bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_' | b'~') {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect();
    let value = format!("attachment; filename=\"{fallback}\"; filename*=UTF-8''{encoded}");
    (
        header::CONTENT_DISPOSITION,
        HeaderValue::from_str(&value).unwrap_or_else(|_| HeaderValue::from_static("attachment")),
    )
}

/// A name fit for a file: no path separators or control characters, spaces as dashes.
fn clean(stem: &str) -> String {
    let cleaned: String = stem
        .chars()
        .map(|c| match c {
            '/' | '\\' | ':' | '*' | '?' | '"' | '<' | '>' | '|' => '-',
            c if c.is_control() => '-',
            c if c.is_whitespace() => '-',
            c => c,
        })
        .collect();
    let trimmed: String = cleaned.trim_matches('-').chars().take(120).collect();
    if trimmed.is_empty() {
        "export".into()
    } else {
        trimmed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chinese_name_has_an_ascii_fallback_and_the_utf8_name() {
        let (_, value) = attachment("象棋公開賽 A組/standings", "csv");
        let value = value.to_str().unwrap();
        assert!(value.starts_with("attachment; filename=\""), "{value}");
        assert!(value.contains("filename=\"A_-standings.csv\""), "{value}");
        assert!(
            value.contains("filename*=UTF-8''%E8%B1%A1%E6%A3%8B"),
            "{value}"
        );
        let (_, value) = attachment("棋", "trf");
        assert!(value.to_str().unwrap().contains("filename=\"export.trf\""));
    }
}
