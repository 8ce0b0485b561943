//! A game record: a start position and the moves played from it, replayed and checked.

use super::notation::{format_move, parse_move, Notation, NotationError, Script};
use super::position::{Move, MoveError, Position};

/// Why a record could not be replayed: the first bad half-move (1-based) and the reason.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("ply {ply}: {kind}")]
pub struct RecordError {
    /// Half-moves counted from 1.
    pub ply: usize,
    /// What is wrong with it.
    pub kind: NotationError,
}

/// A replayed game: where it started and the legal moves played (reveals completed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The start position.
    pub start: Position,
    /// The moves, each legal in turn.
    pub moves: Vec<Move>,
}

/// Splits a record text into move tokens: whitespace-separated, move numbers (`1.`, `12...`)
/// and results (`1-0`, `0-1`, `1/2-1/2`, `*`) left out.
pub fn tokens(text: &str) -> Vec<&str> {
    text.split_whitespace()
        .filter(|t| {
            let number =
                t.ends_with('.') && t.trim_end_matches('.').chars().all(|c| c.is_ascii_digit());
            !number && !matches!(*t, "1-0" | "0-1" | "1/2-1/2" | "½-½" | "*")
        })
        .collect()
}

impl Record {
    /// An empty record from a position.
    pub fn new(start: Position) -> Record {
        Record {
            start,
            moves: Vec::new(),
        }
    }

    /// Replays move texts from `start`; the first unreadable, illegal or ambiguous move (or a
    /// face-down mover without a known identity) stops it.
    pub fn replay<'a>(
        start: Position,
        moves: impl IntoIterator<Item = &'a str>,
        notation: Notation,
    ) -> Result<Record, RecordError> {
        let mut record = Record::new(start);
        let mut pos = record.start.clone();
        for (i, text) in moves.into_iter().enumerate() {
            let ply = i + 1;
            let fail = |kind: NotationError| RecordError { ply, kind };
            let mv = parse_move(&pos, text, notation).map_err(fail)?;
            let mv = pos
                .play(mv)
                .map_err(|e: MoveError| fail(NotationError::Move(e)))?;
            record.moves.push(mv);
        }
        Ok(record)
    }

    /// Plays one more (checked) move.
    pub fn push(&mut self, mv: Move) -> Result<Move, MoveError> {
        let mut pos = self.position();
        let mv = pos.play(mv)?;
        self.moves.push(mv);
        Ok(mv)
    }

    /// The position after all the moves.
    pub fn position(&self) -> Position {
        let mut pos = self.start.clone();
        for &mv in &self.moves {
            pos.make(mv);
        }
        pos
    }

    /// The moves printed in a notation, one string per half-move.
    pub fn format(&self, notation: Notation, script: Script) -> Vec<String> {
        let mut pos = self.start.clone();
        self.moves
            .iter()
            .map(|&mv| {
                let text = format_move(&pos, mv, notation, script);
                pos.make(mv);
                text
            })
            .collect()
    }
}

/// Converts a record text (whitespace-separated moves, move numbers ignored) from one
/// notation to another, move by move from `start`. Returns the converted moves and, when a
/// move could not be read or played, the error of that half-move (the moves before it are
/// still returned).
pub fn convert(
    start: &Position,
    text: &str,
    from: Notation,
    to: Notation,
    script: Script,
) -> (Vec<String>, Option<RecordError>) {
    let mut pos = start.clone();
    let mut out = Vec::new();
    for (i, token) in tokens(text).into_iter().enumerate() {
        let fail = |kind: NotationError| RecordError { ply: i + 1, kind };
        let mv = match parse_move(&pos, token, from) {
            Ok(mv) => mv,
            Err(e) => return (out, Some(fail(e))),
        };
        let mv = match pos.check_move(mv) {
            Ok(mv) => mv,
            Err(e) => return (out, Some(fail(NotationError::Move(e)))),
        };
        out.push(format_move(&pos, mv, to, script));
        pos.make(mv);
    }
    (out, None)
}
