//! Game rules and records (issue #18): Xiangqi (象棋), Jieqi (揭棋) and Banqi (暗棋)
//! positions, legal moves, FEN, and the three move notations (ICCS, Chinese, WXF).
//!
//! # Design
//!
//! - **One position type for Xiangqi and Jieqi** ([`Position`]): Jieqi is Xiangqi with
//!   face-down pieces, so both share the board, move generation and check detection; a
//!   [`Variant`] flag lifts the palace and river limits from advisors and elephants in Jieqi.
//!   Banqi (a 4 × 8 half board, flips and capture by rank) has its own type in [`banqi`].
//! - **Padded mailbox**: the 10 × 9 board sits in an 11-column, 14-row array with off-board
//!   sentinels, so a horse or elephant step never needs bounds checks. Make/unmake is
//!   incremental; legality is pseudo-legal generation plus a check test that looks outwards
//!   from the mover's general (rays for chariots, cannons and the flying general; horse legs;
//!   pawns). Perft 5 from the start (133,312,995 leaves) runs in a few seconds in release
//!   (`cargo run --release -p arbiter-core --example perft`).
//! - **Face-down pieces** (Jieqi): a face-down piece always stands on its own starting square,
//!   so the board stores it as "hidden + the kind of its square" and it moves as that kind; its
//!   true identity, when the set-up is known, is kept beside the board and revealed by the
//!   move that first moves it ([`Move::reveal`]). Capturing a face-down piece does not reveal
//!   it: no notation prints it, matching the rule that captured face-down pieces stay unknown
//!   to the side that lost them.
//! - **Notation by facts**: every legal move is described once by its [`notation::Facts`]
//!   (piece, file, direction, number, rank among like pieces on its file, reveal). Printing
//!   turns facts into text; parsing reads text into a pattern and keeps the legal moves whose
//!   facts match it, so reading is as liberal as the position allows (a plain file for one of
//!   two pieces when only one can make the move) and never accepts an ambiguous move.
//!
//! # FEN
//!
//! Xiangqi FEN as engines write it: ranks 9 to 0 (Black's back rank first), files a–i,
//! Red upper case at the bottom, `k a b n r c p` = general, advisor, elephant, horse,
//! chariot, cannon, soldier (`e` and `h` are read as elephant and horse too), then the side
//! to move (`w` or `r` for Red, `b` for Black). The short form stops there; the six-field
//! form adds `- - halfmove fullmove`, which is what [`Position::to_fen`] writes.
//!
//! **Jieqi extension** (as JieqiBox does): `X` / `x` is a face-down Red / Black piece. It must
//! stand on one of its side's fifteen starting squares and moves as that square's piece. The
//! start is `xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w - - 0 1`. A FEN
//! carries no identities: they come from the round's set-up ([`Position::jieqi_from_setup`]) or
//! from the reveal letters of the moves.
//!
//! # Using it (for the records service)
//!
//! - Xiangqi: [`Position::xiangqi_start`] or [`Position::from_fen`]; Jieqi:
//!   [`Position::jieqi_from_setup`] with the round's [`crate::setup::JieqiSetup`] (reveals are
//!   then filled in and written suffixes checked), or [`Position::jieqi_start`] when only the
//!   record's suffixes say what was revealed.
//! - [`parse_move`]`(&pos, text, Notation)` → [`Move`] or [`NotationError`];
//!   [`format_move`]`(&pos, mv, Notation, Script)`; [`Position::legal_moves`],
//!   [`Position::play`] (checked), [`Position::make`]/[`Position::unmake`] (fast),
//!   [`Position::status`], [`Position::to_fen`].
//! - [`Record::replay`]`(start, moves, Notation)` replays a move list and reports the first
//!   bad half-move as [`RecordError`] (`ply N: …`); [`Record::format`] prints it in any
//!   notation; [`record::convert`] is the `arbiter record convert` command without the file.
//! - Banqi: [`banqi::Banqi::from_setup`], `play_text`, `desk_aid`, and
//!   [`banqi::desk_aid`]`(setup, record_text)` for the 25-move and chase counts.
//!
//! # Out of scope here
//!
//! Repetition and perpetual-check/chase rulings of Xiangqi and Jieqi are an arbiter's call and
//! are not decided by the engine; a side with no legal move has lost.

pub mod banqi;
mod fen;
pub mod notation;
mod position;
pub mod record;

pub use fen::FenError;

pub use notation::{format_move, parse_move, Notation, NotationError, Script};
pub use position::{perft, Move, MoveError, Position, Revealed, Square, Status, Undo, Variant};
pub use record::{Record, RecordError};

pub use crate::model::Side;
pub use crate::setup::Piece;

#[cfg(test)]
mod tests;
