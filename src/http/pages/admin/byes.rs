//! The section page's requested byes and forbidden pairs: an entrant asks for a half-, zero-
//! or full-point bye in a round not yet paired (listed, and cancellable until that round is
//! paired); two entrants who must not meet (same family, same club…). Through
//! `service::entrants` (`request_bye`, `cancel_bye`, `set_forbidden_pair`), as the API.

use super::form::{invalid_fields, number, ButtonForm, Fields};
use super::section::{action_failed, section_page, FormTarget, SectionExtras};
use super::tabs::Tab;
use crate::http::error::OrPage;
use crate::http::error::PageError;
use crate::http::extract::{AppForm, PagePath};
use crate::http::page::PageCtx;
use crate::http::session::{see_other, CurrentUser};
use crate::http::AppState;
use crate::i18n::messages as m;
use crate::i18n::Tr;
use crate::service::entrants::{ByeRequest, ForbiddenPairInput};
use crate::service::users::Actor;
use crate::service::{self, Error, FieldErrors};
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::response::Response;
use axum::routing::post;
use axum::Router;
use uuid::Uuid;

/// The routes of this page.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/admin/s/{section_id}/byes", post(request_bye))
        .route(
            "/admin/s/{section_id}/byes/{entrant_id}/{round}/cancel",
            post(cancel_bye),
        )
        .route("/admin/s/{section_id}/forbidden-pairs", post(forbid_pair))
        .route(
            "/admin/s/{section_id}/forbidden-pairs/remove",
            post(allow_pair),
        )
}

/// An entrant id chosen in a select; a message in `errors` when none (or garbage) was chosen.
fn chosen(form: &Fields, name: &str, _tr: Tr, errors: &mut FieldErrors) -> Option<Uuid> {
    match form.get(name).map(|v| v.trim()).unwrap_or("").parse() {
        Ok(id) => Some(id),
        Err(_) => {
            errors.insert(
                name.into(),
                vec![crate::i18n::ui("adm.choose_entrant_error")],
            );
            None
        }
    }
}

/// The section page again with a refused form (422) or a refused action.
async fn refused(
    state: &AppState,
    actor: &Actor,
    ctx: PageCtx,
    id: Uuid,
    form: Fields,
    target: FormTarget,
    err: Error,
) -> Result<Response, PageError> {
    Ok(match invalid_fields(&err, ctx.tr()) {
        Some((message, errors)) => {
            let extras = SectionExtras {
                tab: Tab::Byes,
                form,
                errors,
                form_error: Some(message),
                target,
                ..SectionExtras::default()
            };
            section_page(
                state,
                actor,
                ctx,
                id,
                extras,
                StatusCode::UNPROCESSABLE_ENTITY,
            )
            .await
            .into_response()
        }
        None => action_failed(state, actor, ctx, id, Tab::Byes, err)
            .await
            .into_response(),
    })
}

/// Refuses an entrant of another section (the page answers for this one).
async fn in_section(state: &AppState, actor: &Actor, id: Uuid, entrant: Uuid) -> Result<(), Error> {
    let list = service::entrants::list(&state.db, Some(actor), id).await?;
    if list.iter().any(|e| e.id == entrant) {
        Ok(())
    } else {
        Err(Error::NotFound(m::NOT_FOUND_ENTRANT))
    }
}

/// `POST /admin/s/{section_id}/byes`: records a requested bye.
pub async fn request_bye(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
    AppForm(form): AppForm<Fields>,
) -> Result<Response, PageError> {
    let tr = ctx.tr();
    let mut errors = FieldErrors::new();
    let entrant = chosen(&form, "bye_entrant", tr, &mut errors);
    let round = number(&form, "bye_round", tr, &mut errors);
    let outcome = match (entrant, round) {
        (Some(entrant), Some(round)) if errors.is_empty() => {
            let request = ByeRequest {
                round,
                kind: form.get("bye_kind").cloned(),
            };
            match in_section(&state, &actor, id, entrant).await {
                Ok(()) => {
                    service::entrants::request_bye(&state.db, &actor, entrant, &request).await
                }
                Err(Error::NotFound(_)) => Err(Error::invalid(
                    "bye_entrant",
                    crate::i18n::ui("adm.choose_entrant_error"),
                )),
                Err(err) => Err(err),
            }
        }
        (_, None) if errors.is_empty() => Err(Error::invalid(
            "bye_round",
            crate::i18n::ui("register.not_a_number"),
        )),
        _ => Err(Error::Invalid {
            message: crate::i18n::ui("error.form_invalid"),
            fields: errors,
        }),
    };
    Ok(match outcome {
        Ok(()) => see_other(&format!("/admin/s/{id}/byes?done=bye")),
        Err(err) => refused(&state, &actor, ctx, id, form, FormTarget::Bye, err).await?,
    })
}

/// `POST /admin/s/{section_id}/byes/{entrant_id}/{round}/cancel`
pub async fn cancel_bye(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath((id, entrant, round)): PagePath<(Uuid, Uuid, i32)>,
    AppForm(_form): AppForm<ButtonForm>,
) -> Result<Response, PageError> {
    in_section(&state, &actor, id, entrant)
        .await
        .or_page(&ctx)?;
    Ok(
        match service::entrants::cancel_bye(&state.db, &actor, entrant, round).await {
            Ok(()) => see_other(&format!("/admin/s/{id}/byes?done=bye_cancelled")),
            Err(err) => action_failed(&state, &actor, ctx, id, Tab::Byes, err)
                .await
                .into_response(),
        },
    )
}

/// `POST /admin/s/{section_id}/forbidden-pairs`: forbids a pair.
pub async fn forbid_pair(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
    AppForm(form): AppForm<Fields>,
) -> Result<Response, PageError> {
    let tr = ctx.tr();
    let mut errors = FieldErrors::new();
    let a = chosen(&form, "pair_a", tr, &mut errors);
    let b = chosen(&form, "pair_b", tr, &mut errors);
    let outcome = match (a, b) {
        (Some(a), Some(b)) => {
            let pair = ForbiddenPairInput { a, b };
            service::entrants::set_forbidden_pair(&state.db, &actor, id, &pair, true).await
        }
        _ => Err(Error::Invalid {
            message: crate::i18n::ui("error.form_invalid"),
            fields: errors,
        }),
    };
    Ok(match outcome {
        Ok(()) => see_other(&format!("/admin/s/{id}/byes?done=forbidden")),
        Err(err) => refused(&state, &actor, ctx, id, form, FormTarget::Forbidden, err).await?,
    })
}

/// `POST /admin/s/{section_id}/forbidden-pairs/remove` (hidden fields `a`, `b`): allows the
/// pair to meet again.
pub async fn allow_pair(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
    AppForm(form): AppForm<Fields>,
) -> Result<Response, PageError> {
    let ids = (
        form.get("a").and_then(|v| v.parse().ok()),
        form.get("b").and_then(|v| v.parse().ok()),
    );
    let (Some(a), Some(b)) = ids else {
        return Err(PageError::from_service(
            Error::invalid("a", crate::i18n::messages::FORM_TWO_ENTRANTS_NEEDED),
            ctx.lang,
        ));
    };
    let pair = ForbiddenPairInput { a, b };
    Ok(
        match service::entrants::set_forbidden_pair(&state.db, &actor, id, &pair, false).await {
            Ok(()) => see_other(&format!("/admin/s/{id}/byes?done=allowed")),
            Err(err) => action_failed(&state, &actor, ctx, id, Tab::Byes, err)
                .await
                .into_response(),
        },
    )
}
