//! E-mail delivery (issue #37): one SMTP transport per worker (lettre over rustls, its
//! connections pooled and reused), each message composed at delivery from the registration
//! (`service::mail::message`: the address is read then, never stored in the outbox) and sent
//! as plain text + HTML with `List-Unsubscribe` and `List-Unsubscribe-Post` (RFC 8058) and a
//! `Message-ID` made from the outbox id, the same on every retry.

use super::client::Failure;
use crate::service;
use crate::service::outbox::Claimed;
use lettre::message::header::{HeaderName, HeaderValue};
use lettre::message::{Mailbox, MultiPart};
use lettre::{AsyncSmtpTransport, AsyncTransport as _, Message, Tokio1Executor};
use sqlx::PgPool;

/// How e-mail goes out.
#[derive(Debug, Clone)]
pub struct Settings {
    /// `--smtp-url`.
    pub url: String,
    /// `--smtp-from`.
    pub from: String,
    /// The address links point at (`--public-url`, else the listener's).
    pub links: String,
}

/// The SMTP URL lettre reads: `smtp://` asks for STARTTLS, required when credentials are
/// given and else taken when offered; `?tls=none` sends in the clear (a local relay).
pub fn transport_url(url: &str) -> Result<String, String> {
    let (base, query) = match url.split_once('?') {
        Some((b, q)) => (b, Some(q)),
        None => (url, None),
    };
    let tls = query
        .into_iter()
        .flat_map(|q| q.split('&'))
        .find_map(|pair| pair.strip_prefix("tls="));
    if base.starts_with("smtps://") {
        return Ok(base.to_string());
    }
    let rest = base
        .strip_prefix("smtp://")
        .ok_or("--smtp-url must start with smtp:// or smtps://")?;
    let credentials = rest.split('/').next().unwrap_or("").contains('@');
    Ok(match tls {
        Some("none") => base.to_string(),
        Some(mode @ ("required" | "opportunistic")) => format!("{base}?tls={mode}"),
        Some(other) => {
            return Err(format!(
                "unknown tls={other} (required, opportunistic, none)"
            ))
        }
        None if credentials => format!("{base}?tls=required"),
        None => format!("{base}?tls=opportunistic"),
    })
}

/// A worker's mailer.
#[derive(Clone)]
pub struct Mailer {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
    domain: String,
    links: String,
}

impl Mailer {
    /// A mailer for `settings`, or why there is none.
    pub fn new(settings: &Settings) -> Result<Mailer, String> {
        let url = transport_url(&settings.url)?;
        let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(&url)
            .map_err(|e| format!("--smtp-url: {e}"))?
            .timeout(Some(std::time::Duration::from_secs(20)))
            .build();
        let from: Mailbox = settings
            .from
            .parse()
            .map_err(|e| format!("--smtp-from: {e}"))?;
        let domain = from.email.domain().to_string();
        Ok(Mailer {
            transport,
            from,
            domain,
            links: settings.links.trim_end_matches('/').to_string(),
        })
    }

    /// Sends one message of the outbox.
    pub async fn send(&self, pool: &PgPool, message: &Claimed) -> Result<(), Failure> {
        let refuse = |text: String| Failure {
            message: text,
            retry: false,
            status: None,
        };
        let composed = service::mail::message(
            pool,
            message.recipient,
            &message.event,
            &message.payload,
            &self.links,
        )
        .await
        .map_err(|e| Failure {
            message: e.to_string(),
            retry: true,
            status: None,
        })?
        .ok_or_else(|| refuse("not sent: the registrant unsubscribed or has no address".into()))?;
        let to: Mailbox = composed
            .to
            .parse()
            .map_err(|_| refuse("the registrant's address is not an e-mail address".into()))?;
        let email = Message::builder()
            .from(self.from.clone())
            .to(to)
            .subject(composed.subject)
            .message_id(Some(format!("<{}@{}>", message.outbox_id, self.domain)))
            .raw_header(HeaderValue::new(
                HeaderName::new_from_ascii_str("List-Unsubscribe"),
                format!("<{}>", composed.unsubscribe),
            ))
            .raw_header(HeaderValue::new(
                HeaderName::new_from_ascii_str("List-Unsubscribe-Post"),
                "List-Unsubscribe=One-Click".into(),
            ))
            .multipart(MultiPart::alternative_plain_html(
                composed.text,
                composed.html,
            ))
            .map_err(|e| refuse(format!("cannot build the message: {e}")))?;
        match self.transport.send(email).await {
            Ok(_) => Ok(()),
            Err(e) => Err(Failure {
                message: format!("SMTP: {e}"),
                retry: !e.is_permanent(),
                status: e.status().map(u16::from),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smtp_urls_ask_for_tls() {
        assert_eq!(
            transport_url("smtp://u:p@mail.example:587").unwrap(),
            "smtp://u:p@mail.example:587?tls=required"
        );
        assert_eq!(
            transport_url("smtp://relay:25").unwrap(),
            "smtp://relay:25?tls=opportunistic"
        );
        assert_eq!(
            transport_url("smtp://relay:25?tls=none").unwrap(),
            "smtp://relay:25"
        );
        assert_eq!(
            transport_url("smtps://u:p@mail.example").unwrap(),
            "smtps://u:p@mail.example"
        );
        assert!(transport_url("http://x").is_err());
    }
}
