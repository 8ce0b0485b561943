//! The confirmation pages of the section desk's destructive actions (issue #15): withdraw an
//! entrant or a registration, publish a round, unpair the last round, void a ledger entry,
//! cancel a requested bye, allow a forbidden pair again; remove a staff member, withdraw an
//! invitation link. Each is the `GET` of the action's
//! own address; the desk links to it, and only the page's form posts the action (the `POST`
//! endpoints themselves are unchanged).

use super::tabs::Tab;
use crate::http::error::{OrPage, PageError};
use crate::http::extract::PagePath;
use crate::http::page::{Page, PageCtx};
use crate::http::pages::shared::confirm::{ConfirmPage, Crumb};
use crate::http::session::CurrentUser;
use crate::http::AppState;
use crate::i18n::messages as m;
use crate::i18n::Tr;
use crate::service::desk::Desk;
use crate::service::entrants::EntrantView;
use crate::service::users::Actor;
use crate::service::{self, Error};
use crate::vocab::PaymentKind;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::routing::get;
use axum::Router;
use std::collections::HashMap;
use uuid::Uuid;

/// The routes of these pages (the `GET`s beside the actions' `POST`s).
pub fn router() -> Router<AppState> {
    Router::new()
        .route(
            "/admin/s/{section_id}/entrants/{entrant_id}/{action}",
            get(confirm_entrant),
        )
        .route(
            "/admin/s/{section_id}/rounds/{n}/publish",
            get(confirm_publish),
        )
        .route(
            "/admin/s/{section_id}/rounds/{n}/unpair",
            get(confirm_unpair),
        )
        .route(
            "/admin/s/{section_id}/registrations/{registration_id}/{action}",
            get(confirm_registration),
        )
        .route(
            "/admin/s/{section_id}/payments/{payment_id}/void",
            get(confirm_void),
        )
        .route(
            "/admin/s/{section_id}/byes/{entrant_id}/{round}/cancel",
            get(confirm_cancel_bye),
        )
        .route(
            "/admin/s/{section_id}/forbidden-pairs/remove",
            get(confirm_allow_pair),
        )
        .route(
            "/admin/t/{tournament_id}/staff/{user_id}/remove",
            get(confirm_remove_staff),
        )
        .route(
            "/admin/t/{tournament_id}/invitations/{invitation_id}/withdraw",
            get(confirm_withdraw_invitation),
        )
}

/// An entrant as the questions name them: "張三 (No. 12)".
pub fn entrant_label(tr: Tr, name: &str, start_no: Option<i32>) -> String {
    match start_no {
        Some(no) => format!("{name} ({})", tr.fmt("adm.confirm.no", no)),
        None => name.to_string(),
    }
}

/// The page for `desk`'s section; Cancel goes back to the action's tab (and a part of it).
struct Ask {
    question: String,
    lines: Vec<String>,
    action: String,
    hidden: Vec<(String, String)>,
    force: Option<String>,
    confirm: String,
    back: (Tab, &'static str),
}

fn page(ctx: PageCtx, desk: &Desk, ask: Ask) -> Page<ConfirmPage> {
    let tr = ctx.tr();
    let section = &desk.section;
    Page(
        StatusCode::OK,
        ConfirmPage {
            tr,
            crumbs: vec![
                Crumb {
                    href: "/admin".into(),
                    label: tr.t("nav.dashboard").into(),
                },
                Crumb {
                    href: format!("/admin/t/{}", desk.tournament.id),
                    label: desk.tournament.name.clone(),
                },
                Crumb {
                    href: format!("/admin/s/{}", section.id),
                    label: section.name.clone(),
                },
            ],
            question: ask.question,
            lines: ask.lines,
            action: ask.action,
            hidden: ask.hidden,
            force: ask.force,
            confirm: ask.confirm,
            cancel: ask.back.0.url(section.id, "", ask.back.1),
            ctx,
        },
    )
}

async fn desk(state: &AppState, actor: &Actor, ctx: &PageCtx, id: Uuid) -> Result<Desk, PageError> {
    service::desk::get(&state.db, actor, id).await.or_page(ctx)
}

fn not_found(ctx: &PageCtx, what: crate::i18n::Text) -> PageError {
    PageError::from_service(Error::NotFound(what), ctx.lang)
}

fn find_entrant<'a>(ctx: &PageCtx, desk: &'a Desk, id: Uuid) -> Result<&'a EntrantView, PageError> {
    desk.entrants
        .iter()
        .find(|e| e.id == id)
        .ok_or_else(|| not_found(ctx, m::NOT_FOUND_ENTRANT))
}

/// `GET /admin/s/{sid}/entrants/{eid}/withdraw`: "Withdraw 張三 (No. 12)?"
pub async fn confirm_entrant(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath((id, entrant_id, action)): PagePath<(Uuid, Uuid, String)>,
) -> Result<Page<ConfirmPage>, PageError> {
    if action != "withdraw" {
        return Err(not_found(&ctx, m::NOT_FOUND_ACTION));
    }
    let desk = desk(&state, &actor, &ctx, id).await?;
    let tr = ctx.tr();
    let e = find_entrant(&ctx, &desk, entrant_id)?;
    let next = desk.rounds.len() + 1;
    let ask = Ask {
        question: tr.fmt(
            "adm.confirm.withdraw",
            entrant_label(tr, &e.name, e.start_no),
        ),
        lines: vec![
            tr.fmt("adm.confirm.withdraw_from", next),
            tr.t("adm.confirm.withdraw_undo").into(),
        ],
        action: format!("/admin/s/{id}/entrants/{entrant_id}/withdraw"),
        hidden: Vec::new(),
        force: None,
        confirm: tr.t("adm.withdraw").into(),
        back: (Tab::Entrants, ""),
    };
    Ok(page(ctx, &desk, ask))
}

/// `GET /admin/s/{sid}/rounds/{n}/publish`
pub async fn confirm_publish(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath((id, n)): PagePath<(Uuid, i32)>,
) -> Result<Page<ConfirmPage>, PageError> {
    let desk = desk(&state, &actor, &ctx, id).await?;
    let tr = ctx.tr();
    let round = desk
        .rounds
        .iter()
        .find(|r| r.number == n)
        .ok_or_else(|| not_found(&ctx, m::NOT_FOUND_ROUND))?;
    let ask = Ask {
        question: tr.fmt("adm.confirm.publish", n),
        lines: vec![
            tr.fmt("adm.confirm.publish_boards", round.boards.len()),
            tr.t("adm.confirm.publish_final").into(),
        ],
        action: format!("/admin/s/{id}/rounds/{n}/publish"),
        hidden: Vec::new(),
        force: None,
        confirm: tr.t("adm.publish").into(),
        back: (Tab::Rounds, ""),
    };
    Ok(page(ctx, &desk, ask))
}

/// `GET /admin/s/{sid}/rounds/{n}/unpair`: with results, the checkbox that deletes them too.
pub async fn confirm_unpair(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath((id, n)): PagePath<(Uuid, i32)>,
) -> Result<Page<ConfirmPage>, PageError> {
    let desk = desk(&state, &actor, &ctx, id).await?;
    let tr = ctx.tr();
    let round = desk
        .actions
        .rounds
        .iter()
        .find(|r| r.number == n)
        .ok_or_else(|| not_found(&ctx, m::NOT_FOUND_ROUND))?;
    let mut lines = vec![tr.t("adm.confirm.unpair_what").to_string()];
    if !round.last {
        lines.push(tr.t("adm.confirm.unpair_not_last").into());
    }
    let ask = Ask {
        question: tr.fmt("adm.confirm.unpair", n),
        lines,
        action: format!("/admin/s/{id}/rounds/{n}/unpair"),
        hidden: Vec::new(),
        force: (round.results > 0).then(|| tr.fmt("adm.unpair_confirm", round.results)),
        confirm: tr.t("adm.unpair").into(),
        back: (Tab::Rounds, ""),
    };
    Ok(page(ctx, &desk, ask))
}

/// `GET /admin/s/{sid}/registrations/{rid}/withdraw`
pub async fn confirm_registration(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath((id, registration_id, action)): PagePath<(Uuid, Uuid, String)>,
) -> Result<Page<ConfirmPage>, PageError> {
    if action != "withdraw" {
        return Err(not_found(&ctx, m::NOT_FOUND_ACTION));
    }
    let desk = desk(&state, &actor, &ctx, id).await?;
    let tr = ctx.tr();
    let r = desk
        .registrations
        .iter()
        .find(|r| r.id == registration_id)
        .ok_or_else(|| not_found(&ctx, m::NOT_FOUND_REGISTRATION))?;
    let mut lines = vec![tr.t("adm.confirm.registration_what").to_string()];
    if r.paid_amount.unwrap_or(0) > 0 {
        lines.push(tr.fmt("adm.confirm.registration_paid", r.paid_amount.unwrap_or(0)));
    }
    let ask = Ask {
        question: tr.fmt("adm.confirm.registration", &r.name),
        lines,
        action: format!("/admin/s/{id}/registrations/{registration_id}/withdraw"),
        hidden: Vec::new(),
        force: None,
        confirm: tr.t("adm.withdraw").into(),
        back: (Tab::Registrations, ""),
    };
    Ok(page(ctx, &desk, ask))
}

/// `GET /admin/s/{sid}/payments/{pid}/void`
pub async fn confirm_void(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath((id, payment_id)): PagePath<(Uuid, Uuid)>,
) -> Result<Page<ConfirmPage>, PageError> {
    let desk = desk(&state, &actor, &ctx, id).await?;
    let tr = ctx.tr();
    let (r, p) = desk
        .registrations
        .iter()
        .find_map(|r| {
            r.payments
                .iter()
                .find(|p| p.id == payment_id)
                .map(|p| (r, p))
        })
        .ok_or_else(|| not_found(&ctx, m::NOT_FOUND_PAYMENT))?;
    let kind = if p.kind == PaymentKind::Refund {
        tr.t("adm.ledger.refund")
    } else {
        tr.t("adm.ledger.payment")
    };
    let method = tr.t(&format!("adm.method.{}", p.method));
    let entry = format!("{kind} {} · {method} · {}", p.amount, r.name);
    let ask = Ask {
        question: tr.fmt("adm.confirm.void", entry),
        lines: vec![tr.t("adm.confirm.void_what").into()],
        action: format!("/admin/s/{id}/payments/{payment_id}/void"),
        hidden: Vec::new(),
        force: None,
        confirm: tr.t("adm.ledger.void").into(),
        back: (Tab::Registrations, ""),
    };
    Ok(page(ctx, &desk, ask))
}

/// `GET /admin/s/{sid}/byes/{eid}/{round}/cancel`
pub async fn confirm_cancel_bye(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath((id, entrant_id, round)): PagePath<(Uuid, Uuid, i32)>,
) -> Result<Page<ConfirmPage>, PageError> {
    let desk = desk(&state, &actor, &ctx, id).await?;
    let tr = ctx.tr();
    let bye = desk
        .byes
        .iter()
        .find(|b| b.entrant_id == entrant_id && b.round == round)
        .ok_or_else(|| not_found(&ctx, m::NOT_FOUND_BYE))?;
    let who = format!(
        "{} · {}",
        entrant_label(tr, &bye.name, bye.start_no),
        tr.fmt("round.n", round)
    );
    let ask = Ask {
        question: tr.fmt("adm.confirm.cancel_bye", who),
        lines: vec![tr.t("adm.confirm.cancel_bye_what").into()],
        action: format!("/admin/s/{id}/byes/{entrant_id}/{round}/cancel"),
        hidden: Vec::new(),
        force: None,
        confirm: tr.t("adm.byes.cancel").into(),
        back: (Tab::Byes, ""),
    };
    Ok(page(ctx, &desk, ask))
}

/// `GET /admin/s/{sid}/forbidden-pairs/remove?a=…&b=…`
pub async fn confirm_allow_pair(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
    Query(query): Query<HashMap<String, String>>,
) -> Result<Page<ConfirmPage>, PageError> {
    let desk = desk(&state, &actor, &ctx, id).await?;
    let tr = ctx.tr();
    let id_of = |key: &str| query.get(key).and_then(|v| v.parse::<Uuid>().ok());
    let (Some(a), Some(b)) = (id_of("a"), id_of("b")) else {
        return Err(not_found(&ctx, m::NOT_FOUND_FORBIDDEN_PAIR));
    };
    let pair = desk
        .forbidden
        .iter()
        .find(|p| (p.a == a && p.b == b) || (p.a == b && p.b == a))
        .ok_or_else(|| not_found(&ctx, m::NOT_FOUND_FORBIDDEN_PAIR))?;
    let ask = Ask {
        question: tr.fmt(
            "adm.confirm.allow_pair",
            format!("{} – {}", pair.a_name, pair.b_name),
        ),
        lines: vec![tr.t("adm.confirm.allow_pair_what").into()],
        action: format!("/admin/s/{id}/forbidden-pairs/remove"),
        hidden: vec![("a".into(), a.to_string()), ("b".into(), b.to_string())],
        force: None,
        confirm: tr.t("adm.forbidden.remove").into(),
        back: (Tab::Byes, "forbidden"),
    };
    Ok(page(ctx, &desk, ask))
}

/// A confirmation page under the tournament's staff page.
fn staff_ask(
    ctx: PageCtx,
    tournament_id: Uuid,
    tournament_name: String,
    question: String,
    lines: Vec<String>,
    action: String,
    confirm: String,
) -> Page<ConfirmPage> {
    let tr = ctx.tr();
    let staff_page = format!("/admin/t/{tournament_id}/staff");
    Page(
        StatusCode::OK,
        ConfirmPage {
            tr,
            crumbs: vec![
                Crumb {
                    href: "/admin".into(),
                    label: tr.t("nav.dashboard").into(),
                },
                Crumb {
                    href: format!("/admin/t/{tournament_id}"),
                    label: tournament_name,
                },
                Crumb {
                    href: staff_page.clone(),
                    label: tr.t("staff.title").into(),
                },
            ],
            question,
            lines,
            action,
            hidden: Vec::new(),
            force: None,
            confirm,
            cancel: staff_page,
            ctx,
        },
    )
}

/// `GET /admin/t/{tid}/staff/{uid}/remove`: "Remove deputy (scorer) from the staff?"
pub async fn confirm_remove_staff(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath((tournament_id, user_id)): PagePath<(Uuid, Uuid)>,
) -> Result<Page<ConfirmPage>, PageError> {
    let tournament = service::tournaments::get(&state.db, tournament_id)
        .await
        .or_page(&ctx)?;
    let staff = service::staff::list(&state.db, &actor, tournament_id)
        .await
        .or_page(&ctx)?;
    let member = staff
        .iter()
        .find(|m| m.user_id == user_id)
        .ok_or_else(|| not_found(&ctx, m::NOT_FOUND_STAFF_MEMBER))?;
    let tr = ctx.tr();
    let who = format!(
        "{} ({})",
        member.username,
        tr.t(&format!("role.{}", member.role))
    );
    Ok(staff_ask(
        ctx,
        tournament_id,
        tournament.name,
        tr.fmt("adm.confirm.remove_staff", who),
        vec![tr.t("adm.confirm.remove_staff_what").into()],
        format!("/admin/t/{tournament_id}/staff/{user_id}/remove"),
        tr.t("staff.remove").into(),
    ))
}

/// `GET /admin/t/{tid}/invitations/{iid}/withdraw`: an unused invitation link withdrawn.
pub async fn confirm_withdraw_invitation(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath((tournament_id, invitation_id)): PagePath<(Uuid, Uuid)>,
) -> Result<Page<ConfirmPage>, PageError> {
    let tournament = service::tournaments::get(&state.db, tournament_id)
        .await
        .or_page(&ctx)?;
    let invitations = service::staff::list_invitations(&state.db, &actor, tournament_id)
        .await
        .or_page(&ctx)?;
    let invitation = invitations
        .iter()
        .find(|i| i.id == invitation_id)
        .ok_or_else(|| not_found(&ctx, m::NOT_FOUND_INVITATION))?;
    let tr = ctx.tr();
    let what = format!(
        "{} · {}",
        tr.t(&format!("role.{}", invitation.role)),
        invitation.expires_at.format("%Y-%m-%d %H:%M UTC")
    );
    Ok(staff_ask(
        ctx,
        tournament_id,
        tournament.name,
        tr.fmt("adm.confirm.withdraw_invitation", what),
        vec![tr.t("adm.confirm.withdraw_invitation_what").into()],
        format!("/admin/t/{tournament_id}/invitations/{invitation_id}/withdraw"),
        tr.t("staff.withdraw").into(),
    ))
}
