//! The team ranking of an individual section (issue #41): `/s/{id}/teams?rule=wxf|chinese&members=N`.

use crate::http::error::{OrPage, PageError};
use crate::http::extract::PagePath;
use crate::http::page::{Page, PageCtx};
use crate::http::pages::shared::{load_section, nav_of, SectionNav};
use crate::http::AppState;
use crate::i18n::Tr;
use crate::service;
use crate::service::team_ranking::TeamMember;
use askama::Template;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use uuid::Uuid;

/// The routes of this page.
pub fn router() -> Router<AppState> {
    Router::new().route("/s/{section_id}/teams", get(show_team_ranking))
}

/// One team on the page.
pub struct TeamLine {
    /// Rank.
    pub rank: u32,
    /// Team label.
    pub team: String,
    /// Sum of the counted members' places.
    pub places: u32,
    /// Total of the counted members' points, as shown.
    pub points: String,
    /// The team has every counted member.
    pub complete: bool,
    /// The counted members: "name (place)".
    pub counted: Vec<String>,
    /// The other members: "name (place)".
    pub others: Vec<String>,
}

/// `GET /s/{section_id}/teams`
#[derive(Template)]
#[template(path = "public/team_ranking.html")]
pub struct TeamRankingPage {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// Heading and tabs.
    pub nav: SectionNav,
    /// `wxf` or `chinese`.
    pub rule: String,
    /// Members counted.
    pub members: u32,
    /// The most members a ranking may count.
    pub max_members: u32,
    /// Rounds evaluated.
    pub round: u32,
    /// No result missing.
    pub is_final: bool,
    /// Teams in order.
    pub lines: Vec<TeamLine>,
}

fn points(p: f64) -> String {
    let tenths = (p * 10.0).round() as i64;
    if tenths % 10 == 0 {
        (tenths / 10).to_string()
    } else {
        format!("{}.{}", tenths / 10, (tenths % 10).abs())
    }
}

fn named(list: &[TeamMember]) -> Vec<String> {
    list.iter()
        .map(|m| format!("{} ({})", m.name, m.place))
        .collect()
}

async fn team_ranking(
    state: AppState,
    ctx: PageCtx,
    id: Uuid,
    query: Option<String>,
) -> Result<Response, PageError> {
    let (ctx, t, s, prizes) = load_section(&state, ctx, id).await?;
    let (mut rule, mut members) = (None, None);
    for pair in query.as_deref().unwrap_or_default().split('&') {
        match pair.split_once('=') {
            Some(("rule", v)) => rule = Some(v.to_string()),
            // A number that does not parse is out of range (0): the service says so.
            Some(("members", v)) if !v.is_empty() => members = Some(v.parse().unwrap_or(0)),
            _ => {}
        }
    }
    let loaded = async {
        let rule = service::team_ranking::rule_of(rule.as_deref())?;
        let ranking = service::team_ranking::compute(&state.db, id, rule, members).await?;
        let rounds = service::rounds::visible_numbers(&state.db, ctx.actor.as_ref(), id).await?;
        Ok::<_, service::Error>((ranking, rounds))
    }
    .await;
    let (ranking, rounds) = loaded.or_page(&ctx)?;
    let nav = nav_of(&t, &s, rounds, "standings", 0, prizes);
    let tr = ctx.tr();
    let lines = ranking
        .rows
        .iter()
        .map(|r| TeamLine {
            rank: r.rank,
            team: r.team.clone(),
            places: r.places,
            points: points(r.points),
            complete: r.complete,
            counted: named(&r.counted),
            others: named(&r.others),
        })
        .collect();
    Ok(Page(
        StatusCode::OK,
        TeamRankingPage {
            tr,
            ctx,
            nav,
            rule: ranking.rule,
            members: ranking.members,
            max_members: service::team_ranking::MAX_COUNTED,
            round: ranking.round,
            is_final: ranking.is_final,
            lines,
        },
    )
    .into_response())
}

/// `GET /s/{section_id}/teams[?rule=wxf|chinese&members=N]`
pub async fn show_team_ranking(
    State(state): State<AppState>,
    ctx: PageCtx,
    PagePath(id): PagePath<Uuid>,
    uri: axum::http::Uri,
    headers: axum::http::HeaderMap,
) -> Response {
    let query = uri.query().map(str::to_string);
    super::live::serve(&state.clone(), id, ctx, &headers, |ctx| {
        team_ranking(state, ctx, id, query)
    })
    .await
}
