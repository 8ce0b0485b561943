//! E-mail (issue #37). With `--smtp-url` (and `--smtp-from`) registrants may opt in on the
//! public form; they then get a confirmation (their key link once their place is confirmed,
//! the fee they owe and how to pay) and each published round's pairing (board, colour,
//! opponent, start: what their own page shows), in the language they registered in, as plain
//! text and HTML, with a one-click unsubscribe link (`/unsubscribe/{token}`) also named in
//! `List-Unsubscribe` and `List-Unsubscribe-Post` (RFC 8058). Messages are outbox rows
//! (channel `email`, the registration as recipient): the address is read at delivery and never
//! copied into a message row, never shown to other players; the desk sees delivery states.

use super::push::RoundNotice;
use super::{Error, Result};
use crate::db;
use crate::i18n::{messages as m, Lang, Tr};
use serde_json::Value;
use sqlx::PgPool;
use uuid::Uuid;

/// A composed message.
#[derive(Debug, Clone, PartialEq)]
pub struct Composed {
    /// The address.
    pub to: String,
    /// Subject.
    pub subject: String,
    /// Plain text.
    pub text: String,
    /// HTML.
    pub html: String,
    /// The one-click unsubscribe address.
    pub unsubscribe: String,
}

/// HTML-escapes text.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// One line of a message: text, or a link.
enum Line {
    Text(String),
    Link(String, String),
    Break,
}

fn compose(
    to: String,
    subject: String,
    lang: Lang,
    lines: Vec<Line>,
    unsubscribe: String,
) -> Composed {
    let tr = Tr { lang };
    let footer = tr.t("mail.unsubscribe");
    let mut text = String::new();
    let mut html = format!(
        "<!DOCTYPE html><html lang=\"{}\"><head><meta charset=\"utf-8\"><title>{}</title></head><body>",
        lang.tag(),
        escape(&subject)
    );
    for line in &lines {
        match line {
            Line::Text(t) => {
                text.push_str(t);
                text.push('\n');
                html.push_str(&format!("<p>{}</p>", escape(t).replace('\n', "<br>")));
            }
            Line::Link(label, url) => {
                text.push_str(&format!("{label}\n{url}\n"));
                html.push_str(&format!(
                    "<p>{}<br><a href=\"{}\">{}</a></p>",
                    escape(label),
                    escape(url),
                    escape(url)
                ));
            }
            Line::Break => text.push('\n'),
        }
    }
    text.push_str(&format!("\n-- \n{footer}\n{unsubscribe}\n"));
    html.push_str(&format!(
        "<hr><p style=\"color:#666;font-size:smaller\">{} <a href=\"{}\">{}</a></p></body></html>",
        escape(footer),
        escape(&unsubscribe),
        escape(tr.t("mail.unsubscribe_link"))
    ));
    Composed {
        to,
        subject,
        text,
        html,
        unsubscribe,
    }
}

fn lang_of(r: &db::mail::Recipient) -> Lang {
    r.email_lang
        .as_deref()
        .and_then(Lang::from_tag)
        .or_else(|| Lang::from_tag(&r.default_language))
        .unwrap_or(Lang::ZhHant)
}

/// What a message to a registration says, or `None` when it is not to be sent (the
/// registrant unsubscribed, has no address, or the registration is gone).
pub async fn message(
    pool: &PgPool,
    registration_id: Uuid,
    event: &str,
    payload: &Value,
    links: &str,
) -> Result<Option<Composed>> {
    let Some(r) = db::mail::recipient(pool, registration_id).await? else {
        return Ok(None);
    };
    let Some(to) = r.email.clone().filter(|_| r.email_opt_in) else {
        return Ok(None);
    };
    let lang = lang_of(&r);
    let tr = Tr { lang };
    let unsubscribe = format!("{links}/unsubscribe/{}", r.email_token);
    let hello = Line::Text(tr.fmt("mail.hello", &r.name));
    let composed = if event == "round.published" {
        let Ok(notice) = serde_json::from_value::<RoundNotice>(payload.clone()) else {
            return Err(Error::Internal("not a round notice".into()));
        };
        let (subject, body) = notice.words(lang);
        let mut lines = vec![hello, Line::Break, Line::Text(body)];
        if let Some(key) = &r.key {
            lines.push(Line::Break);
            lines.push(Line::Link(
                tr.t("mail.key_link").to_string(),
                format!("{links}/k/{key}"),
            ));
        }
        compose(to, subject, lang, lines, unsubscribe)
    } else {
        let subject = tr.fmt("mail.confirm.subject", &r.tournament_name);
        let place = format!("{} · {}", r.tournament_name, r.section_name);
        let status = match r.status.as_str() {
            "confirmed" => tr.fmt("mail.status.confirmed", &place),
            "waitlisted" => tr.fmt("mail.status.waitlisted", &place),
            "withdrawn" | "cancelled" => tr.fmt("mail.status.withdrawn", &place),
            _ => tr.fmt("mail.status.pending", &place),
        };
        let mut lines = vec![hello, Line::Break, Line::Text(status)];
        let tiers: Vec<super::sections::FeeTier> =
            serde_json::from_value(r.fee_tiers.clone()).unwrap_or_default();
        let currency = tiers
            .iter()
            .find(|t| Some(&t.name) == r.fee_tier.as_ref())
            .or(tiers.first())
            .map(|t| t.currency.clone())
            .unwrap_or_default();
        let amount = super::prizes::money(r.fee_amount, &currency);
        if r.fee_amount > 0 && !matches!(r.status.as_str(), "withdrawn" | "cancelled") {
            if r.payment_state == "paid" {
                lines.push(Line::Text(tr.fmt("mail.fee_paid", &amount)));
            } else {
                lines.push(Line::Text(tr.fmt("mail.fee_due", &amount)));
                if !r.payment_instructions.trim().is_empty() {
                    lines.push(Line::Text(format!(
                        "{}\n{}",
                        tr.t("mail.how_to_pay"),
                        r.payment_instructions.trim()
                    )));
                }
            }
        }
        if let Some(key) = &r.key {
            lines.push(Line::Break);
            lines.push(Line::Link(
                tr.t("mail.key_link").to_string(),
                format!("{links}/k/{key}"),
            ));
        }
        compose(to, subject, lang, lines, unsubscribe)
    };
    Ok(Some(composed))
}

/// Who a token's unsubscribe page is for.
#[derive(Debug, Clone)]
pub struct Unsubscribing {
    /// The registrant's name.
    pub name: String,
    /// The tournament.
    pub tournament: String,
    /// Whether e-mail still goes to them.
    pub subscribed: bool,
}

/// The registrant of an unsubscribe token (404 for an unknown one).
pub async fn unsubscribing(pool: &PgPool, token: &str) -> Result<Unsubscribing> {
    let found = if token.len() <= 100 && token.chars().all(|c| c.is_ascii_hexdigit()) {
        db::mail::by_token(pool, token).await?
    } else {
        None
    };
    let (name, tournament, subscribed) = found.ok_or(Error::NotFound(m::NOT_FOUND_UNSUBSCRIBE))?;
    Ok(Unsubscribing {
        name,
        tournament,
        subscribed,
    })
}

/// Ends a token's e-mail (404 for an unknown token; again is no error).
pub async fn unsubscribe(pool: &PgPool, token: &str) -> Result<Unsubscribing> {
    let mut who = unsubscribing(pool, token).await?;
    db::mail::unsubscribe(pool, token).await?;
    who.subscribed = false;
    Ok(who)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_is_escaped_and_both_parts_carry_the_unsubscribe_link() {
        let c = compose(
            "a@example.org".into(),
            "S".into(),
            Lang::En,
            vec![
                Line::Text("<b>Bob</b> & co".into()),
                Line::Link("Page".into(), "https://x.example/k/1".into()),
            ],
            "https://x.example/unsubscribe/ab".into(),
        );
        assert!(c.html.contains("&lt;b&gt;Bob&lt;/b&gt; &amp; co"));
        assert!(c.text.contains("<b>Bob</b> & co"));
        assert!(c.text.contains("https://x.example/unsubscribe/ab"));
        assert!(c.html.contains("href=\"https://x.example/unsubscribe/ab\""));
    }
}
