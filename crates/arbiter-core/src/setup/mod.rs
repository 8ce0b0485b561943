//! Hidden-piece set-ups (SPEC §9): Jieqi (揭棋) and Banqi (暗棋) starting positions drawn from
//! a caller-supplied RNG, their canonical text form, the SHA-256 commitment published before
//! the round, and the arbiter's set-up sheet.
//!
//! # Canonical text form (stable; the commitment hashes exactly these bytes)
//!
//! Piece letters: `R` chariot (车), `H` horse (马), `E` elephant (相/象), `A` advisor (仕/士),
//! `C` cannon (炮), `P` pawn (兵/卒), `K` general (帅/将). Red is upper case, Black lower case.
//! Squares use files `a`–`i` from Red's left and ranks `0`–`9` from Red's back rank.
//!
//! - **Jieqi**: `jieqi:` + 15 upper-case letters + `/` + 15 lower-case letters. Each side's
//!   letters are the hidden pieces on that side's starting squares, in this order:
//!   Red `a0 b0 c0 d0 f0 g0 h0 i0 b2 h2 a3 c3 e3 g3 i3`,
//!   Black `a9 b9 c9 d9 f9 g9 h9 i9 b7 h7 a6 c6 e6 g6 i6` (the generals on `e0`/`e9` are not
//!   hidden and not listed). The standard Xiangqi array reads
//!   `jieqi:RHEAAEHRCCPPPPP/rheaaehrccppppp`.
//! - **Banqi**: `banqi:` + 4 rows of 8 letters separated by `/`, rows top to bottom as on the
//!   set-up sheet (row 1 first), each row from column `a` to `h`.
//!
//! No blanks, no line end. The commitment is `hex(sha256(canonical + ":" + salt))` in lower
//! case, where `salt` is any text (the server uses 32 random hex digits); revealing the
//! canonical text and the salt after the round lets anyone check it with [`verify`].

use crate::model::Side;
use rand_core::{RngCore, SeedableRng};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::fmt::Write as _;

/// Which hidden-piece game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Game {
    /// 揭棋: each side's 15 non-general pieces hidden on its own starting squares.
    Jieqi,
    /// 暗棋: all 32 pieces face down on a 4 × 8 half board.
    Banqi,
}

/// A piece kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Piece {
    /// 车 `R`.
    Chariot,
    /// 马 `H`.
    Horse,
    /// 相/象 `E`.
    Elephant,
    /// 仕/士 `A`.
    Advisor,
    /// 炮 `C`.
    Cannon,
    /// 兵/卒 `P`.
    Pawn,
    /// 帅/将 `K` (hidden only in Banqi).
    General,
}

impl Piece {
    /// Every kind, in letter order `R H E A C P K`.
    pub const ALL: [Piece; 7] = [
        Piece::Chariot,
        Piece::Horse,
        Piece::Elephant,
        Piece::Advisor,
        Piece::Cannon,
        Piece::Pawn,
        Piece::General,
    ];

    /// The upper-case letter.
    pub fn letter(self) -> char {
        match self {
            Piece::Chariot => 'R',
            Piece::Horse => 'H',
            Piece::Elephant => 'E',
            Piece::Advisor => 'A',
            Piece::Cannon => 'C',
            Piece::Pawn => 'P',
            Piece::General => 'K',
        }
    }

    /// The piece of a letter (either case).
    pub fn from_letter(c: char) -> Option<Piece> {
        Piece::ALL
            .into_iter()
            .find(|p| p.letter() == c.to_ascii_uppercase())
    }

    /// Chinese name (Red's form, Black's form).
    pub fn chinese(self) -> (&'static str, &'static str) {
        match self {
            Piece::Chariot => ("俥", "車"),
            Piece::Horse => ("傌", "馬"),
            Piece::Elephant => ("相", "象"),
            Piece::Advisor => ("仕", "士"),
            Piece::Cannon => ("炮", "砲"),
            Piece::Pawn => ("兵", "卒"),
            Piece::General => ("帥", "將"),
        }
    }
}

/// A piece with its colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ColouredPiece {
    /// Red or Black.
    pub side: Side,
    /// Kind.
    pub piece: Piece,
}

impl ColouredPiece {
    /// Upper case for Red, lower case for Black.
    pub fn letter(self) -> char {
        match self.side {
            Side::Red => self.piece.letter(),
            Side::Black => self.piece.letter().to_ascii_lowercase(),
        }
    }

    fn from_letter(c: char) -> Option<ColouredPiece> {
        let piece = Piece::from_letter(c)?;
        let side = if c.is_ascii_uppercase() {
            Side::Red
        } else {
            Side::Black
        };
        Some(ColouredPiece { side, piece })
    }
}

/// The 15 hidden pieces of one Jieqi side, in square order.
pub const JIEQI_PIECES: [Piece; 15] = [
    Piece::Chariot,
    Piece::Horse,
    Piece::Elephant,
    Piece::Advisor,
    Piece::Advisor,
    Piece::Elephant,
    Piece::Horse,
    Piece::Chariot,
    Piece::Cannon,
    Piece::Cannon,
    Piece::Pawn,
    Piece::Pawn,
    Piece::Pawn,
    Piece::Pawn,
    Piece::Pawn,
];

/// Red's 15 Jieqi squares (file, rank) in canonical order; Black's mirror them (rank 9 − r).
pub const JIEQI_RED_SQUARES: [(u8, u8); 15] = [
    (0, 0),
    (1, 0),
    (2, 0),
    (3, 0),
    (5, 0),
    (6, 0),
    (7, 0),
    (8, 0),
    (1, 2),
    (7, 2),
    (0, 3),
    (2, 3),
    (4, 3),
    (6, 3),
    (8, 3),
];

/// Name of a square, e.g. `b2`.
pub fn square_name(file: u8, rank: u8) -> String {
    format!("{}{}", char::from(b'a' + file), rank)
}

/// A Jieqi set-up: the hidden pieces on each side's 15 starting squares.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JieqiSetup {
    /// Red's pieces on [`JIEQI_RED_SQUARES`], in that order.
    pub red: [Piece; 15],
    /// Black's pieces on the mirrored squares, in the same order.
    pub black: [Piece; 15],
}

/// A Banqi set-up: 32 pieces on 4 rows × 8 columns, row 1 first, each row `a`–`h`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BanqiSetup {
    /// Row-major squares.
    pub squares: [ColouredPiece; 32],
}

/// A set-up of either game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Setup {
    /// Jieqi.
    Jieqi(JieqiSetup),
    /// Banqi.
    Banqi(BanqiSetup),
}

/// Why a canonical text could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// Occurs when the text is not a canonical set-up (prefix, length, letters, or the
    /// multiset of pieces is wrong).
    #[error("not a canonical set-up: {0}")]
    Malformed(String),
}

/// A uniform integer in `0..n` (`n ≥ 1`) without modulo bias (rejection sampling).
fn below<R: RngCore + ?Sized>(rng: &mut R, n: u32) -> u32 {
    let n64 = u64::from(n);
    let zone = (1u64 << 32) / n64 * n64;
    loop {
        let x = u64::from(rng.next_u32());
        if x < zone {
            return (x % n64) as u32;
        }
    }
}

/// Fisher–Yates: every permutation equally likely given a uniform `below`.
fn shuffle<T, R: RngCore + ?Sized>(items: &mut [T], rng: &mut R) {
    for i in (1..items.len()).rev() {
        let j = below(rng, i as u32 + 1) as usize;
        items.swap(i, j);
    }
}

fn banqi_pieces() -> [ColouredPiece; 32] {
    let one_side = [
        (Piece::General, 1),
        (Piece::Advisor, 2),
        (Piece::Elephant, 2),
        (Piece::Chariot, 2),
        (Piece::Horse, 2),
        (Piece::Cannon, 2),
        (Piece::Pawn, 5),
    ];
    let mut out = [ColouredPiece {
        side: Side::Red,
        piece: Piece::General,
    }; 32];
    let mut i = 0;
    for side in [Side::Red, Side::Black] {
        for (piece, count) in one_side {
            for _ in 0..count {
                out[i] = ColouredPiece { side, piece };
                i += 1;
            }
        }
    }
    out
}

impl Setup {
    /// Draws a set-up of `game` from `rng` (the server passes a CSPRNG; tests a seeded one).
    pub fn generate<R: RngCore + ?Sized>(game: Game, rng: &mut R) -> Setup {
        match game {
            Game::Jieqi => {
                let mut red = JIEQI_PIECES;
                let mut black = JIEQI_PIECES;
                shuffle(&mut red, rng);
                shuffle(&mut black, rng);
                Setup::Jieqi(JieqiSetup { red, black })
            }
            Game::Banqi => {
                let mut squares = banqi_pieces();
                shuffle(&mut squares, rng);
                Setup::Banqi(BanqiSetup { squares })
            }
        }
    }

    /// Which game.
    pub fn game(&self) -> Game {
        match self {
            Setup::Jieqi(_) => Game::Jieqi,
            Setup::Banqi(_) => Game::Banqi,
        }
    }

    /// The canonical text form (module doc).
    pub fn canonical(&self) -> String {
        match self {
            Setup::Jieqi(s) => {
                let red: String = s.red.iter().map(|p| p.letter()).collect();
                let black: String = s
                    .black
                    .iter()
                    .map(|p| p.letter().to_ascii_lowercase())
                    .collect();
                format!("jieqi:{red}/{black}")
            }
            Setup::Banqi(s) => {
                let rows: Vec<String> = s
                    .squares
                    .chunks(8)
                    .map(|row| row.iter().map(|p| p.letter()).collect())
                    .collect();
                format!("banqi:{}", rows.join("/"))
            }
        }
    }

    /// Reads a canonical text back, checking the piece counts.
    pub fn parse_canonical(text: &str) -> Result<Setup, SetupError> {
        let bad = |why: &str| SetupError::Malformed(why.to_string());
        if let Some(body) = text.strip_prefix("jieqi:") {
            let (red, black) = body.split_once('/').ok_or_else(|| bad("no '/'"))?;
            let side = |letters: &str, upper: bool| -> Result<[Piece; 15], SetupError> {
                let mut out = [Piece::Pawn; 15];
                let chars: Vec<char> = letters.chars().collect();
                if chars.len() != 15 {
                    return Err(bad("a Jieqi side needs 15 letters"));
                }
                for (slot, c) in out.iter_mut().zip(chars) {
                    if c.is_ascii_uppercase() != upper {
                        return Err(bad("Red is upper case, Black lower case"));
                    }
                    *slot = Piece::from_letter(c).ok_or_else(|| bad("unknown letter"))?;
                }
                let mut sorted = out;
                sorted.sort_unstable();
                let mut expected = JIEQI_PIECES;
                expected.sort_unstable();
                if sorted != expected {
                    return Err(bad("wrong Jieqi pieces"));
                }
                Ok(out)
            };
            return Ok(Setup::Jieqi(JieqiSetup {
                red: side(red, true)?,
                black: side(black, false)?,
            }));
        }
        if let Some(body) = text.strip_prefix("banqi:") {
            let rows: Vec<&str> = body.split('/').collect();
            if rows.len() != 4 || rows.iter().any(|r| r.chars().count() != 8) {
                return Err(bad("Banqi needs 4 rows of 8 letters"));
            }
            let mut squares = banqi_pieces();
            for (slot, c) in squares.iter_mut().zip(rows.concat().chars()) {
                *slot = ColouredPiece::from_letter(c).ok_or_else(|| bad("unknown letter"))?;
            }
            let key = |p: &ColouredPiece| (p.side, p.piece);
            let mut sorted = squares;
            sorted.sort_by_key(key);
            let mut expected = banqi_pieces();
            expected.sort_by_key(key);
            if sorted != expected {
                return Err(bad("wrong Banqi pieces"));
            }
            return Ok(Setup::Banqi(BanqiSetup { squares }));
        }
        Err(bad("unknown prefix"))
    }

    /// The commitment `hex(sha256(canonical + ":" + salt))`.
    pub fn commitment(&self, salt: &str) -> String {
        commitment(&self.canonical(), salt)
    }

    /// A text board diagram for the arbiter's set-up sheet (monospace).
    pub fn diagram(&self) -> String {
        let mut out = String::new();
        match self {
            Setup::Jieqi(s) => {
                // 10 ranks × 9 files, rank 9 (Black's back rank) on top.
                let mut board = [['.'; 9]; 10];
                board[0][4] = 'K';
                board[9][4] = 'k';
                for (i, &(file, rank)) in JIEQI_RED_SQUARES.iter().enumerate() {
                    board[rank as usize][file as usize] = s.red[i].letter();
                    board[9 - rank as usize][file as usize] =
                        s.black[i].letter().to_ascii_lowercase();
                }
                let _ = writeln!(out, "   a b c d e f g h i");
                for rank in (0..10).rev() {
                    let row: Vec<String> = board[rank].iter().map(char::to_string).collect();
                    let _ = writeln!(out, "{rank}  {}", row.join(" "));
                    if rank == 5 {
                        let _ = writeln!(out, "   ~~~~~~~~~~~~~~~~~  river");
                    }
                }
                let _ = writeln!(out);
                for (label, side, pieces) in
                    [("Red", Side::Red, &s.red), ("Black", Side::Black, &s.black)]
                {
                    let list: Vec<String> = JIEQI_RED_SQUARES
                        .iter()
                        .zip(pieces.iter())
                        .map(|(&(f, r), p)| {
                            let rank = if side == Side::Red { r } else { 9 - r };
                            let name = if side == Side::Red {
                                p.chinese().0
                            } else {
                                p.chinese().1
                            };
                            format!("{}={}", square_name(f, rank), name)
                        })
                        .collect();
                    let _ = writeln!(out, "{label}: {}", list.join(" "));
                }
            }
            Setup::Banqi(s) => {
                let _ = writeln!(out, "   a b c d e f g h");
                for (i, row) in s.squares.chunks(8).enumerate() {
                    let letters: Vec<String> = row.iter().map(|p| p.letter().to_string()).collect();
                    let _ = writeln!(out, "{}  {}", i + 1, letters.join(" "));
                }
            }
        }
        let _ = writeln!(
            out,
            "Legend: R 车 chariot, H 马 horse, E 相/象 elephant, A 仕/士 advisor, C 炮 cannon, \
             P 兵/卒 pawn, K 帅/将 general; upper case Red, lower case Black."
        );
        out
    }
}

/// `hex(sha256(canonical + ":" + salt))`, lower case.
pub fn commitment(canonical: &str, salt: &str) -> String {
    let mut hasher = Sha256::new();
    hasher.update(canonical.as_bytes());
    hasher.update(b":");
    hasher.update(salt.as_bytes());
    hasher
        .finalize()
        .iter()
        .fold(String::with_capacity(64), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        })
}

/// Checks a revealed set-up and salt against a published commitment (case-insensitive hex).
pub fn verify(canonical: &str, salt: &str, published: &str) -> bool {
    commitment(canonical, salt).eq_ignore_ascii_case(published.trim())
}

/// A random salt: 32 lower-case hex digits from `rng`.
pub fn random_salt<R: RngCore + ?Sized>(rng: &mut R) -> String {
    let mut bytes = [0u8; 16];
    rng.fill_bytes(&mut bytes);
    bytes.iter().fold(String::with_capacity(32), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

/// The arbiter's set-up sheet: title, diagram, canonical form, salt and commitment.
pub fn setup_sheet(setup: &Setup, salt: &str) -> String {
    let title = match setup.game() {
        Game::Jieqi => "Jieqi set-up (揭棋布局)",
        Game::Banqi => "Banqi set-up (暗棋布局)",
    };
    let canonical = setup.canonical();
    let mut out = String::new();
    let _ = writeln!(out, "{title}\n");
    out.push_str(&setup.diagram());
    let _ = writeln!(out, "\ncanonical:  {canonical}");
    let _ = writeln!(out, "salt:       {salt}");
    let _ = writeln!(
        out,
        "commitment: {}  (sha256 of canonical:salt)",
        commitment(&canonical, salt)
    );
    out
}

/// What `arbiter setup --game jieqi|banqi --seed N` prints: a set-up and salt drawn from a
/// ChaCha20 stream seeded with `seed` (reproducible; for real events the server draws from
/// the operating system's CSPRNG through [`setup_sheet_from_rng`]).
pub fn setup_text(game: Game, seed: u64) -> String {
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(seed);
    setup_sheet_from_rng(game, &mut rng)
}

/// A set-up sheet with set-up and salt drawn from `rng`.
pub fn setup_sheet_from_rng<R: RngCore + ?Sized>(game: Game, rng: &mut R) -> String {
    let setup = Setup::generate(game, rng);
    let salt = random_salt(rng);
    setup_sheet(&setup, &salt)
}

#[cfg(test)]
mod tests;
