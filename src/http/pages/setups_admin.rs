//! The arbiter's view of a round's hidden-piece set-ups (Jieqi/Banqi): the commitment that
//! everyone sees, and for the arbiters the set-up itself as a diagram, its canonical text and
//! salt (`service::setups::of_round` decides what is revealed).

use super::dashboard::{fail, require};
use super::session::CurrentUser;
use super::{HtmlPage, PageCtx};
use crate::http::extract::PagePath;
use crate::http::AppState;
use crate::i18n::Tr;
use crate::service;
use crate::service::access::Need;
use crate::service::sections::Section;
use crate::service::setups::RoundSetups;
use arbiter_core::model::Side;
use arbiter_core::setup::{Piece, Setup, JIEQI_RED_SQUARES};
use askama::Template;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use uuid::Uuid;

/// `GET /admin/s/{section_id}/rounds/{n}/setup`
#[derive(Template)]
#[template(path = "admin/setup.html")]
pub struct SetupPage {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// The section.
    pub section: Section,
    /// Round number.
    pub number: i32,
    /// The set-ups.
    pub setups: RoundSetups,
}

/// `GET /admin/s/{section_id}/rounds/{n}/setup`
pub async fn show_setup(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath((id, n)): PagePath<(Uuid, i32)>,
) -> Response {
    let loaded = async {
        let section = service::sections::get(&state.db, id).await?;
        require(&state, &actor, section.tournament_id, Need::Scorer).await?;
        let setups = service::setups::of_round(&state.db, Some(&actor), id, n).await?;
        service::Result::Ok((section, setups))
    }
    .await;
    match loaded {
        Ok((section, setups)) => HtmlPage(
            StatusCode::OK,
            SetupPage {
                tr: ctx.tr(),
                ctx,
                section,
                number: n,
                setups,
            },
        )
        .into_response(),
        Err(err) => fail(err, &ctx),
    }
}

// ---------------------------------------------------------------- the printed set-up sheet

/// One square of a board diagram.
pub struct DiagramCell {
    /// The piece's character (Red's or Black's form), empty for an empty square.
    pub glyph: &'static str,
    /// A Red piece (printed in red, ringed).
    pub red: bool,
}

/// One rank (Jieqi) or row (Banqi) of a board diagram, top first.
pub struct DiagramRow {
    /// Rank number or row number, printed at the left.
    pub label: String,
    /// Squares, file `a` first.
    pub cells: Vec<DiagramCell>,
    /// The river runs below this rank (Jieqi, rank 5).
    pub river_below: bool,
}

/// A board diagram of a set-up: what the arbiter lays out, face down, before the round.
pub struct Diagram {
    /// `jieqi` or `banqi` (a CSS class).
    pub game: &'static str,
    /// File letters, left to right.
    pub files: Vec<char>,
    /// Rows, top to bottom.
    pub rows: Vec<DiagramRow>,
}

fn glyph(piece: Piece, red: bool) -> DiagramCell {
    let (red_form, black_form) = piece.chinese();
    DiagramCell {
        glyph: if red { red_form } else { black_form },
        red,
    }
}

/// The diagram of a canonical set-up text (`None` when it does not parse, which a stored
/// set-up always does).
pub fn diagram(canonical: &str) -> Option<Diagram> {
    match Setup::parse_canonical(canonical).ok()? {
        Setup::Jieqi(s) => {
            // 10 ranks × 9 files, Black's back rank (9) on top, as Red sits at the sheet.
            let mut board: Vec<Vec<DiagramCell>> = (0..10)
                .map(|_| {
                    (0..9)
                        .map(|_| DiagramCell {
                            glyph: "",
                            red: false,
                        })
                        .collect()
                })
                .collect();
            board[0][4] = glyph(Piece::General, true);
            board[9][4] = glyph(Piece::General, false);
            for (i, &(file, rank)) in JIEQI_RED_SQUARES.iter().enumerate() {
                board[usize::from(rank)][usize::from(file)] = glyph(s.red[i], true);
                board[9 - usize::from(rank)][usize::from(file)] = glyph(s.black[i], false);
            }
            let rows = board
                .into_iter()
                .enumerate()
                .rev()
                .map(|(rank, cells)| DiagramRow {
                    label: rank.to_string(),
                    cells,
                    river_below: rank == 5,
                })
                .collect();
            Some(Diagram {
                game: "jieqi",
                files: ('a'..='i').collect(),
                rows,
            })
        }
        Setup::Banqi(s) => {
            let rows = s
                .squares
                .chunks(8)
                .enumerate()
                .map(|(i, row)| DiagramRow {
                    label: (i + 1).to_string(),
                    cells: row
                        .iter()
                        .map(|p| glyph(p.piece, p.side == Side::Red))
                        .collect(),
                    river_below: false,
                })
                .collect();
            Some(Diagram {
                game: "banqi",
                files: ('a'..='h').collect(),
                rows,
            })
        }
    }
}

/// One sheet: the one set-up of a duplicate round, or one board's.
pub struct SetupSheet {
    /// Board number (per-board mode).
    pub board: Option<i32>,
    /// Red and Black of that board, when it has a game.
    pub players: Option<(String, String)>,
    /// The diagram.
    pub diagram: Option<Diagram>,
    /// The canonical set-up text.
    pub setup: String,
    /// The commitment published before the round.
    pub commitment: String,
}

/// `GET /admin/s/{section_id}/rounds/{n}/setup/print`
#[derive(Template)]
#[template(path = "print/setup.html")]
pub struct SetupPrint {
    /// Translations.
    pub tr: Tr,
    /// Layout context.
    pub ctx: PageCtx,
    /// Tournament name.
    pub tournament_name: String,
    /// The section.
    pub section: Section,
    /// Round number.
    pub number: i32,
    /// `duplicate` or `per_board`.
    pub mode: String,
    /// One sheet per set-up (a page each).
    pub sheets: Vec<SetupSheet>,
}

/// `GET /admin/s/{section_id}/rounds/{n}/setup/print`: the arbiter's A4 set-up sheet, one
/// page per set-up with its board diagram and commitment.
pub async fn print_setup(
    State(state): State<AppState>,
    CurrentUser(actor): CurrentUser,
    ctx: PageCtx,
    PagePath((id, n)): PagePath<(Uuid, i32)>,
) -> Response {
    let loaded = async {
        let section = service::sections::get(&state.db, id).await?;
        require(&state, &actor, section.tournament_id, Need::Scorer).await?;
        let tournament = service::tournaments::get(&state.db, section.tournament_id).await?;
        let setups = service::setups::of_round(&state.db, Some(&actor), id, n).await?;
        let round = service::rounds::get(&state.db, Some(&actor), id, n).await?;
        service::Result::Ok((tournament, section, setups, round))
    }
    .await;
    let (tournament, section, setups, round) = match loaded {
        Ok(found) => found,
        Err(err) => return fail(err, &ctx),
    };
    let mut sheets: Vec<SetupSheet> = setups
        .setups
        .into_iter()
        .map(|s| {
            // The service shows arbiters the set-up at once; the sheet is theirs only.
            let setup = s.setup.unwrap_or_default();
            let players = s.board.and_then(|number| {
                let b = round.boards.iter().find(|b| b.number == number)?;
                let black = b.black.as_ref()?;
                Some((b.red.name.clone(), black.name.clone()))
            });
            SetupSheet {
                board: s.board,
                players,
                diagram: diagram(&setup),
                setup,
                commitment: s.commitment,
            }
        })
        .collect();
    // In board order, as the arbiter walks the hall.
    sheets.sort_by_key(|s| s.board);
    let ctx = ctx.with_default_tag(&tournament.default_language);
    HtmlPage(
        StatusCode::OK,
        SetupPrint {
            tr: ctx.tr(),
            ctx,
            tournament_name: tournament.name,
            section,
            number: n,
            mode: setups.mode,
            sheets,
        },
    )
    .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_standard_array_is_drawn_with_red_at_the_bottom() {
        let d = diagram("jieqi:RHEAAEHRCCPPPPP/rheaaehrccppppp").expect("diagram");
        assert_eq!(d.rows.len(), 10);
        assert_eq!(d.rows[0].label, "9");
        let top: Vec<&str> = d.rows[0].cells.iter().map(|c| c.glyph).collect();
        assert_eq!(top, ["車", "馬", "象", "士", "将", "士", "象", "馬", "車"]);
        assert!(d.rows[9].cells.iter().all(|c| c.red));
        assert_eq!(d.rows[2].cells[1].glyph, "砲");
        assert_eq!(d.rows[7].cells[1].glyph, "炮");
        assert!(d.rows[4].river_below && d.rows[4].label == "5");
        assert_eq!(d.rows.iter().filter(|r| r.river_below).count(), 1);
        let banqi = diagram("banqi:KAAEEHHR/RCCPPPPP/kaaeehhr/rccppppp").expect("banqi");
        assert_eq!((banqi.rows.len(), banqi.files.len()), (4, 8));
        assert!(diagram("nonsense").is_none());
    }
}
