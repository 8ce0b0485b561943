//! The crosstable of a team section (issue #41): `/s/{id}/crosstable` (and its print) shows it
//! for a team section in place of the individual crosstable — one row per team in standing
//! order, per round the opposing team's line, the colour on board 1 and the board points
//! scored (`3R 2½`), then match points and board points. Served by `crosstable.rs` (the same
//! live path, `live::serve`), which hands team sections over here.

use crate::http::error::{OrPage, PageError};
use crate::http::page::{Page, PageCtx};
use crate::http::pages::shared::{format_number, SectionNav, View};
use crate::http::AppState;
use crate::i18n::Tr;
use crate::service;
use crate::service::team_crosstable::{TeamCrossCell, TeamCrosstable};
use askama::Template;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

/// Points with a half as `½`: `2½`, `½`, `3`.
pub fn halves(value: f64) -> String {
    let halves = (value * 2.0).round() as i64;
    if halves % 2 == 0 {
        return format_number(value);
    }
    match halves / 2 {
        0 if halves > 0 => "½".to_string(),
        0 => "-½".to_string(),
        whole => format!("{whole}½"),
    }
}

/// One cell as shown.
pub struct CrossText {
    /// The opposing team's line, or empty.
    pub opponent: String,
    /// Catalogue key of the colour on board 1 (`colour.red_short`…), or empty.
    pub colour_key: &'static str,
    /// Board points scored (`2½`), empty while no board has a result.
    pub points: String,
    /// The match was forfeited as a whole.
    pub forfeited: bool,
    /// Board points for and against and match points in words (the cell's title), or empty.
    pub title: String,
    /// Catalogue key of a bye or absence (`absence.pairing`…), or empty.
    pub bye_key: String,
}

/// One team's line.
pub struct CrossTeamLine {
    /// Line number.
    pub line: u32,
    /// Rank.
    pub rank: u32,
    /// Starting number.
    pub start_no: String,
    /// Name.
    pub name: String,
    /// One cell per round.
    pub cells: Vec<CrossText>,
    /// Match points.
    pub match_points: String,
    /// Board points.
    pub board_points: String,
}

/// What the team crosstable shows.
pub struct TeamCrossData {
    /// Round numbers (columns).
    pub rounds: Vec<i32>,
    /// Lines in standing order.
    pub lines: Vec<CrossTeamLine>,
    /// Rounds with every result in.
    pub rounds_completed: i32,
}

fn cell(tr: Tr, c: &TeamCrossCell) -> CrossText {
    match &c.bye {
        Some(kind) => CrossText {
            opponent: String::new(),
            colour_key: "",
            points: String::new(),
            forfeited: false,
            title: String::new(),
            bye_key: format!("absence.{kind}"),
        },
        None => CrossText {
            opponent: c.opponent_line.map(|l| l.to_string()).unwrap_or_default(),
            colour_key: match c.colour.as_deref() {
                Some("red") => "colour.red_short",
                Some("black") => "colour.black_short",
                _ => "",
            },
            points: c.board_points.map(halves).unwrap_or_default(),
            forfeited: c.forfeited,
            title: match (c.board_points, c.opponent_board_points, c.match_points) {
                (Some(a), Some(b), Some(mp)) => tr.fmt_n(
                    "team_page.cell_title",
                    &[&halves(a), &halves(b), &format_number(mp)],
                ),
                _ => String::new(),
            },
            bye_key: String::new(),
        },
    }
}

/// The crosstable as shown.
pub fn cross_data(tr: Tr, table: &TeamCrosstable) -> TeamCrossData {
    TeamCrossData {
        rounds: table.rounds.clone(),
        rounds_completed: table.rounds_completed,
        lines: table
            .rows
            .iter()
            .map(|r| CrossTeamLine {
                line: r.line,
                rank: r.rank,
                start_no: r.start_no.map(|n| n.to_string()).unwrap_or_default(),
                name: r.name.clone(),
                cells: r.cells.iter().map(|c| cell(tr, c)).collect(),
                match_points: format_number(r.match_points),
                board_points: halves(r.board_points),
            })
            .collect(),
    }
}

/// `GET /s/{section_id}/crosstable` of a team section.
#[derive(Template)]
#[template(path = "public/team_crosstable.html")]
pub struct TeamCrosstablePage {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// Heading and tabs.
    pub nav: SectionNav,
    /// The table.
    pub data: TeamCrossData,
}

/// `GET /s/{section_id}/crosstable/print` of a team section.
#[derive(Template)]
#[template(path = "print/team_crosstable.html")]
pub struct TeamCrosstablePrint {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// Heading.
    pub nav: SectionNav,
    /// The table.
    pub data: TeamCrossData,
}

/// The crosstable page of a team section, on screen or printed.
pub async fn crosstable_page(
    state: &AppState,
    ctx: PageCtx,
    nav: SectionNav,
    id: uuid::Uuid,
    view: View,
) -> Result<Response, PageError> {
    let table = service::team_crosstable::crosstable(&state.db, id)
        .await
        .or_page(&ctx)?;
    let tr = ctx.tr();
    let data = cross_data(tr, &table);
    Ok(match view {
        View::Screen => {
            Page(StatusCode::OK, TeamCrosstablePage { tr, ctx, nav, data }).into_response()
        }
        View::Print => {
            Page(StatusCode::OK, TeamCrosstablePrint { tr, ctx, nav, data }).into_response()
        }
    })
}

#[cfg(test)]
mod tests {
    use super::halves;

    #[test]
    fn halves_are_written_with_the_half_sign() {
        assert_eq!(halves(2.5), "2½");
        assert_eq!(halves(0.5), "½");
        assert_eq!(halves(3.0), "3");
        assert_eq!(halves(0.0), "0");
    }
}
