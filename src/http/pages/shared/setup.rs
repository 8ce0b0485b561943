//! The board diagram of a hidden-piece set-up (Jieqi, Banqi): shown to arbiters before the
//! round, printed on the set-up sheet, and public once the round's set-up is revealed.

use arbiter_core::model::Side;
use arbiter_core::setup::{Piece, Setup, JIEQI_RED_SQUARES};

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_standard_array_is_drawn_with_red_at_the_bottom() {
        let d = diagram("jieqi:RHEAAEHRCCPPPPP/rheaaehrccppppp").expect("diagram");
        assert_eq!(d.rows.len(), 10);
        assert_eq!(d.rows[0].label, "9");
        let top: Vec<&str> = d.rows[0].cells.iter().map(|c| c.glyph).collect();
        assert_eq!(top, ["車", "馬", "象", "士", "將", "士", "象", "馬", "車"]);
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
