//! The confirmation page of a destructive action (issue #15): the desk's button links here
//! (a GET of the action's own address), the page says what will happen, and only its form
//! posts the action. It works without JavaScript; Cancel goes back where the button was.

use crate::http::page::PageCtx;
use crate::i18n::Tr;
use askama::Template;

/// A link of the crumbs line.
pub struct Crumb {
    /// Where it goes.
    pub href: String,
    /// Its text.
    pub label: String,
}

/// `GET` of a destructive action: the question, what follows, Confirm and Cancel.
#[derive(Template)]
#[template(path = "admin/confirm.html")]
pub struct ConfirmPage {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// The links above the heading (dashboard, tournament, section).
    pub crumbs: Vec<Crumb>,
    /// The question ("Withdraw 張三 (No. 12)?").
    pub question: String,
    /// What follows from it, a sentence a line.
    pub lines: Vec<String>,
    /// The address the form posts to (the action's own).
    pub action: String,
    /// Hidden fields the action needs besides the CSRF token.
    pub hidden: Vec<(String, String)>,
    /// The label of a required checkbox `force` (deleting results too), if any.
    pub force: Option<String>,
    /// The confirm button's text.
    pub confirm: String,
    /// Where Cancel goes.
    pub cancel: String,
}
