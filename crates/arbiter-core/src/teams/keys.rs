//! Team tie-break keys (FIDE C.07, team competitions) and their names.

use std::fmt;
use std::str::FromStr;

/// One key of a team ranking chain, in FIDE TieBreakServer's names (`TB:PS`, PS = MP match
/// points or GP game points).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TeamKey {
    /// `MPTS`: match points (场分).
    Mpts,
    /// `GPTS`: game points (局分), a forfeit win counting as a win.
    Gpts,
    /// `BH:MP`: sum of the opponents' match points (对手分).
    BhMp,
    /// `BH:GP`: sum of the opponents' game points.
    BhGp,
    /// `SB:MP`: each opponent's match points times the match points scored against him.
    SbMp,
    /// `SB:GP`: each opponent's game points times the match points scored against him.
    SbGp,
    /// `EGGSB`: each opponent's game points times the game points scored against him.
    Eggsb,
    /// `DE`: direct encounter on match points among the teams still tied.
    De,
    /// `BC`: board count, each board's game points times its board number (as the reference
    /// calculator computes it; higher ranks first).
    Bc,
    /// `WON`: matches won.
    Won,
}

impl TeamKey {
    /// Every key, in the order of the documentation.
    pub const ALL: [TeamKey; 10] = [
        TeamKey::Mpts,
        TeamKey::Gpts,
        TeamKey::BhMp,
        TeamKey::BhGp,
        TeamKey::SbMp,
        TeamKey::SbGp,
        TeamKey::Eggsb,
        TeamKey::De,
        TeamKey::Bc,
        TeamKey::Won,
    ];

    /// The canonical name (`BH:MP`).
    pub fn name(self) -> &'static str {
        match self {
            TeamKey::Mpts => "MPTS",
            TeamKey::Gpts => "GPTS",
            TeamKey::BhMp => "BH:MP",
            TeamKey::BhGp => "BH:GP",
            TeamKey::SbMp => "SB:MP",
            TeamKey::SbGp => "SB:GP",
            TeamKey::Eggsb => "EGGSB",
            TeamKey::De => "DE",
            TeamKey::Bc => "BC",
            TeamKey::Won => "WON",
        }
    }

    /// The default chain after match points: game points (局分), direct encounter,
    /// opponents' match points (对手分), Sonneborn-Berger on match points, board count, wins.
    pub fn default_chain() -> Vec<TeamKey> {
        vec![
            TeamKey::Gpts,
            TeamKey::De,
            TeamKey::BhMp,
            TeamKey::SbMp,
            TeamKey::Bc,
            TeamKey::Won,
        ]
    }
}

impl fmt::Display for TeamKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown team tie-break name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown team tie-break {0:?}")]
pub struct UnknownTeamKey(pub String);

impl FromStr for TeamKey {
    type Err = UnknownTeamKey;

    /// Reads a name, case-insensitively; `BH` and `SB` alone mean `BH:MP` and `SB:MP`
    /// (TieBreakServer's default point system), `/` is accepted for `:`.
    fn from_str(s: &str) -> Result<TeamKey, UnknownTeamKey> {
        let upper = s.trim().to_ascii_uppercase().replace('/', ":");
        let key = match upper.as_str() {
            "BH" => TeamKey::BhMp,
            "SB" => TeamKey::SbMp,
            "MP" => TeamKey::Mpts,
            "GP" => TeamKey::Gpts,
            _ => TeamKey::ALL
                .into_iter()
                .find(|k| k.name() == upper)
                .ok_or_else(|| UnknownTeamKey(s.to_string()))?,
        };
        Ok(key)
    }
}
