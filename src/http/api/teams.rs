//! `/api/v1/sections/{id}/team-ranking`: team rankings inside an individual section (issue #41).

use crate::http::error::{ApiError, ErrorBody};
use crate::http::extract::{AppJson, AppPath, AppQuery};
use crate::http::AppState;
use crate::service;
use crate::service::team_ranking::TeamRanking;
use axum::extract::State;
use serde::Deserialize;
use utoipa::IntoParams;
use uuid::Uuid;

/// How to rank the teams.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct TeamRankingQuery {
    /// `wxf` (sum of the best members' places, lower first; the default) or `chinese` (total
    /// of the best members' points, higher first).
    pub rule: Option<String>,
    /// Members counted per team, 1–10 (default: 2 for `wxf`, 3 for `chinese`).
    pub members: Option<u32>,
}

/// The teams of an individual section ranked from their members' results. A team is the
/// entrants sharing a club (单位: a club, a province or a nation); teams with fewer members
/// than counted come after the complete ones.
#[utoipa::path(get, path = "/api/v1/sections/{id}/team-ranking", tag = "standings",
    params(("id" = Uuid, Path, description = "Section id"), TeamRankingQuery),
    responses((status = 200, body = TeamRanking), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
pub async fn get_team_ranking(
    State(state): State<AppState>,
    AppPath(id): AppPath<Uuid>,
    AppQuery(query): AppQuery<TeamRankingQuery>,
) -> Result<AppJson<TeamRanking>, ApiError> {
    let rule = service::team_ranking::rule_of(query.rule.as_deref())?;
    let ranking = service::team_ranking::compute(&state.db, id, rule, query.members).await?;
    Ok(AppJson(ranking))
}
