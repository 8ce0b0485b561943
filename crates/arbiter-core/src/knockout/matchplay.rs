//! One knockout match (or a playoff between section champions): best of N games, then a
//! tiebreak chain (rapid → armageddon) when tied (RULES §2.3, SPEC §7).
//!
//! The match is a pure state machine over the list of games played: the server stores the
//! games and rebuilds the state by replaying them ([`Match::state`] looks only at the
//! recorded games), so nothing else needs persisting.

use super::{EntrantId, KnockoutError};
use serde::{Deserialize, Serialize};

/// How the match winner is decided from the regular games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DecideBy {
    /// Sum of game points (2/1/0 by default); the RULES default.
    #[default]
    Points,
    /// Number of games won ("3局2胜"); draws count for nobody.
    Wins,
}

/// Who is Red in a game whose colours are open (game 1, a new lot, armageddon).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OpenColours {
    /// Drawing of lots (猜先/抽签): the caller supplies the outcome.
    #[default]
    ByLot,
    /// The higher seed plays Red.
    HigherSeedRed,
    /// The higher seed chooses (the caller supplies the choice, like a lot).
    HigherSeedChooses,
}

/// Colours of the odd games after the first (game 3, 5, …); even games always swap.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LaterOddGames {
    /// A new drawing of lots (the RULES default).
    #[default]
    NewLot,
    /// Alternate again ("轮流"): the game-1 Red player is Red again.
    Alternate,
}

/// The kind of a tiebreak game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TiebreakKind {
    /// Rapid game (快棋): a draw leads to the next game of the chain.
    Rapid,
    /// Ultra-rapid game (超快棋): a draw leads to the next game of the chain.
    Blitz,
    /// Armageddon (附加赛): a draw counts as a win for Black (和棋黑胜).
    Armageddon,
}

/// One stage of the tiebreak chain: up to `max_games` sudden-death games of one kind.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TiebreakStage {
    /// The kind of game.
    pub kind: TiebreakKind,
    /// How many games at most (the first decisive game ends the match). At least 1.
    pub max_games: u32,
    /// Time control as shown to the players, e.g. `10+5`.
    pub time_control: String,
    /// Colours of this stage's first game; later games of the stage swap colours.
    /// `None`: swap from the previous game of the match.
    pub colours: Option<OpenColours>,
}

/// The rules of a match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchRules {
    /// Number of regular games (N of best-of-N). At least 1.
    pub games: u32,
    /// Points or wins.
    pub decide_by: DecideBy,
    /// Game-1 colours.
    pub first_game: OpenColours,
    /// Colours of game 3, 5, ….
    pub later_odd_games: LaterOddGames,
    /// Play all N games even when the match is already decided.
    pub play_all: bool,
    /// Game points for a win (2 by default).
    pub win_points: u32,
    /// Game points for a draw (1 by default).
    pub draw_points: u32,
    /// Tiebreak chain when tied after N games; when it is exhausted the match is decided by
    /// lot.
    pub tiebreaks: Vec<TiebreakStage>,
}

impl Default for MatchRules {
    /// Best of 3 by points (2/1/0), game 1 by lot, game 3 by a new lot, then one rapid game
    /// (10+5, colours swapped) and an armageddon (Red 6′, Black 4′, +3″, colours by lot).
    fn default() -> Self {
        MatchRules::best_of(3)
    }
}

impl MatchRules {
    /// The default rules with `games` regular games.
    pub fn best_of(games: u32) -> MatchRules {
        MatchRules {
            games,
            decide_by: DecideBy::Points,
            first_game: OpenColours::ByLot,
            later_odd_games: LaterOddGames::NewLot,
            play_all: false,
            win_points: 2,
            draw_points: 1,
            tiebreaks: vec![
                TiebreakStage {
                    kind: TiebreakKind::Rapid,
                    max_games: 1,
                    time_control: "10+5".into(),
                    colours: None,
                },
                TiebreakStage {
                    kind: TiebreakKind::Armageddon,
                    max_games: 1,
                    time_control: "R6' B4' +3\"".into(),
                    colours: Some(OpenColours::ByLot),
                },
            ],
        }
    }
}

/// The result of one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameOutcome {
    /// Red won (also a forfeit by Black).
    RedWins,
    /// Drawn.
    Draw,
    /// Black won (also a forfeit by Red).
    BlackWins,
}

/// A game of the match as recorded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchGame {
    /// Red.
    pub red: EntrantId,
    /// Black.
    pub black: EntrantId,
    /// Result.
    pub outcome: GameOutcome,
}

/// Which part of the match a game belongs to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GamePhase {
    /// Regular game `number` (1-based).
    Regular {
        /// 1-based game number.
        number: u32,
    },
    /// Tiebreak game `number` (1-based) of stage `stage` (0-based index in the chain).
    Tiebreak {
        /// Index in [`MatchRules::tiebreaks`].
        stage: usize,
        /// Kind of the stage.
        kind: TiebreakKind,
        /// 1-based game number inside the stage.
        number: u32,
        /// Time control of the stage.
        time_control: String,
    },
}

/// Colours of the next game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NextColours {
    /// Fixed by the rules.
    Fixed {
        /// Red.
        red: EntrantId,
        /// Black.
        black: EntrantId,
    },
    /// By lot: the caller draws and records the game with the colours drawn.
    Lot,
    /// The given player chooses.
    ChosenBy(EntrantId),
}

/// How a decided match was decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DecidedBy {
    /// In the regular games.
    Regular,
    /// In a tiebreak game of stage `0`-based index.
    Tiebreak(usize),
    /// By the drawing of lots after the whole chain.
    Lot,
}

/// Where a match stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchState {
    /// A game is to be played next.
    NextGame {
        /// Which game.
        phase: GamePhase,
        /// Its colours.
        colours: NextColours,
    },
    /// The tiebreak chain is exhausted: draw lots and call [`Match::record_lot`].
    NeedsLot,
    /// Over.
    Decided {
        /// Winner.
        winner: EntrantId,
        /// Loser.
        loser: EntrantId,
        /// How.
        by: DecidedBy,
    },
}

/// Scores of the two players after the regular games played so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchScore {
    /// Game points of the higher seed.
    pub higher_points: u32,
    /// Game points of the lower seed.
    pub lower_points: u32,
    /// Wins of the higher seed.
    pub higher_wins: u32,
    /// Wins of the lower seed.
    pub lower_wins: u32,
}

/// A match between two entrants. `higher` is the higher seed (or the better-ranked champion
/// in a playoff); it matters for "higher seed Red" and "higher seed chooses".
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Match {
    /// Higher seed.
    pub higher: EntrantId,
    /// Lower seed.
    pub lower: EntrantId,
    /// Rules.
    pub rules: MatchRules,
    /// Games in the order played: regular games first, then tiebreak games.
    pub games: Vec<MatchGame>,
    /// Winner of the drawing of lots that ends an exhausted tiebreak chain.
    pub lot_winner: Option<EntrantId>,
}

impl Match {
    /// A new match. Errors when `higher == lower` or the rules ask for no game.
    pub fn new(
        higher: EntrantId,
        lower: EntrantId,
        rules: MatchRules,
    ) -> Result<Match, KnockoutError> {
        if higher == lower {
            return Err(KnockoutError::NotInMatch(higher));
        }
        if rules.games == 0 || rules.tiebreaks.iter().any(|s| s.max_games == 0) {
            return Err(KnockoutError::BadRules(
                "a match and each tiebreak stage need at least one game".into(),
            ));
        }
        Ok(Match {
            higher,
            lower,
            rules,
            games: Vec::new(),
            lot_winner: None,
        })
    }

    /// A playoff between section champions (SPEC §7, seed 004): same mechanics;
    /// `better` is the better-ranked champion.
    pub fn playoff(
        better: EntrantId,
        other: EntrantId,
        rules: MatchRules,
    ) -> Result<Match, KnockoutError> {
        Match::new(better, other, rules)
    }

    fn regular_games(&self) -> &[MatchGame] {
        let n = (self.rules.games as usize).min(self.games.len());
        &self.games[..n]
    }

    /// Scores over the regular games recorded so far.
    pub fn score(&self) -> MatchScore {
        let mut s = MatchScore::default();
        for g in self.regular_games() {
            let (hp, lp) = self.game_points(g);
            s.higher_points += hp;
            s.lower_points += lp;
            match self.game_winner(g, false) {
                Some(w) if w == self.higher => s.higher_wins += 1,
                Some(_) => s.lower_wins += 1,
                None => {}
            }
        }
        s
    }

    fn game_points(&self, g: &MatchGame) -> (u32, u32) {
        let (w, d) = (self.rules.win_points, self.rules.draw_points);
        match self.game_winner(g, false) {
            Some(x) if x == self.higher => (w, 0),
            Some(_) => (0, w),
            None => (d, d),
        }
    }

    /// The winner of a game; with `armageddon` a draw is a Black win.
    fn game_winner(&self, g: &MatchGame, armageddon: bool) -> Option<EntrantId> {
        match g.outcome {
            GameOutcome::RedWins => Some(g.red),
            GameOutcome::BlackWins => Some(g.black),
            GameOutcome::Draw if armageddon => Some(g.black),
            GameOutcome::Draw => None,
        }
    }

    fn other(&self, id: EntrantId) -> EntrantId {
        if id == self.higher {
            self.lower
        } else {
            self.higher
        }
    }

    fn decided(&self, winner: EntrantId, by: DecidedBy) -> MatchState {
        MatchState::Decided {
            winner,
            loser: self.other(winner),
            by,
        }
    }

    fn open(&self, rule: OpenColours) -> NextColours {
        match rule {
            OpenColours::ByLot => NextColours::Lot,
            OpenColours::HigherSeedRed => NextColours::Fixed {
                red: self.higher,
                black: self.lower,
            },
            OpenColours::HigherSeedChooses => NextColours::ChosenBy(self.higher),
        }
    }

    fn swapped_from_last(&self) -> NextColours {
        match self.games.last() {
            Some(g) => NextColours::Fixed {
                red: g.black,
                black: g.red,
            },
            None => self.open(self.rules.first_game),
        }
    }

    /// The regular-game leader when the regular games decide the match (early stop unless
    /// `play_all`).
    fn regular_decision(&self) -> Option<EntrantId> {
        let played = self.regular_games().len() as u32;
        let remaining = self.rules.games - played;
        let s = self.score();
        let (h, l, per_game) = match self.rules.decide_by {
            DecideBy::Points => (s.higher_points, s.lower_points, self.rules.win_points),
            DecideBy::Wins => (s.higher_wins, s.lower_wins, 1),
        };
        if self.rules.play_all && remaining > 0 {
            return None;
        }
        let reach = remaining * per_game;
        if h > l + reach {
            Some(self.higher)
        } else if l > h + reach {
            Some(self.lower)
        } else {
            None
        }
    }

    /// Where the match stands after the recorded games.
    pub fn state(&self) -> MatchState {
        let regular = self.rules.games as usize;
        if let Some(w) = self.regular_decision() {
            return self.decided(w, DecidedBy::Regular);
        }
        if self.games.len() < regular {
            let number = self.games.len() as u32 + 1;
            let colours = if number == 1 {
                self.open(self.rules.first_game)
            } else if number % 2 == 0 {
                self.swapped_from_last()
            } else {
                match self.rules.later_odd_games {
                    LaterOddGames::NewLot => self.open(self.rules.first_game),
                    LaterOddGames::Alternate => self.swapped_from_last(),
                }
            };
            return MatchState::NextGame {
                phase: GamePhase::Regular { number },
                colours,
            };
        }
        // Tied after the regular games: walk the tiebreak chain.
        let mut rest = &self.games[regular..];
        for (index, stage) in self.rules.tiebreaks.iter().enumerate() {
            let armageddon = stage.kind == TiebreakKind::Armageddon;
            let take = (stage.max_games as usize).min(rest.len());
            for g in &rest[..take] {
                if let Some(w) = self.game_winner(g, armageddon) {
                    return self.decided(w, DecidedBy::Tiebreak(index));
                }
            }
            if take < stage.max_games as usize {
                let colours = match (take, stage.colours) {
                    (0, Some(rule)) => self.open(rule),
                    _ => self.swapped_from_last(),
                };
                return MatchState::NextGame {
                    phase: GamePhase::Tiebreak {
                        stage: index,
                        kind: stage.kind,
                        number: take as u32 + 1,
                        time_control: stage.time_control.clone(),
                    },
                    colours,
                };
            }
            rest = &rest[take..];
        }
        match self.lot_winner {
            Some(w) => self.decided(w, DecidedBy::Lot),
            None => MatchState::NeedsLot,
        }
    }

    /// The colours of the next game given the outcome of a lot or choice when they are open:
    /// `higher_seed_red` says whether the lot (or the chooser) gave Red to the higher seed.
    /// `None` when no game is due.
    pub fn next_colours(&self, higher_seed_red: bool) -> Option<(EntrantId, EntrantId)> {
        match self.state() {
            MatchState::NextGame { colours, .. } => Some(match colours {
                NextColours::Fixed { red, black } => (red, black),
                NextColours::Lot | NextColours::ChosenBy(_) => {
                    if higher_seed_red {
                        (self.higher, self.lower)
                    } else {
                        (self.lower, self.higher)
                    }
                }
            }),
            _ => None,
        }
    }

    /// Records the next game. Errors when the match needs no game, the players are not this
    /// match's, or the colours contradict fixed colours.
    pub fn record_game(&mut self, game: MatchGame) -> Result<MatchState, KnockoutError> {
        let state = self.state();
        let colours = match &state {
            MatchState::NextGame { colours, .. } => *colours,
            _ => return Err(KnockoutError::MatchOver),
        };
        for id in [game.red, game.black] {
            if id != self.higher && id != self.lower {
                return Err(KnockoutError::NotInMatch(id));
            }
        }
        if game.red == game.black {
            return Err(KnockoutError::NotInMatch(game.red));
        }
        if let NextColours::Fixed { red, .. } = colours {
            if red != game.red {
                return Err(KnockoutError::WrongColours);
            }
        }
        self.games.push(game);
        Ok(self.state())
    }

    /// Records the drawing of lots that ends an exhausted tiebreak chain.
    pub fn record_lot(&mut self, winner: EntrantId) -> Result<MatchState, KnockoutError> {
        if self.state() != MatchState::NeedsLot {
            return Err(KnockoutError::MatchOver);
        }
        if winner != self.higher && winner != self.lower {
            return Err(KnockoutError::NotInMatch(winner));
        }
        self.lot_winner = Some(winner);
        Ok(self.state())
    }

    /// Winner and loser once decided.
    pub fn result(&self) -> Option<(EntrantId, EntrantId)> {
        match self.state() {
            MatchState::Decided { winner, loser, .. } => Some((winner, loser)),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use GameOutcome::*;

    fn game(red: EntrantId, black: EntrantId, outcome: GameOutcome) -> MatchGame {
        MatchGame {
            red,
            black,
            outcome,
        }
    }

    fn play(m: &mut Match, higher_red: bool, outcome: GameOutcome) -> MatchState {
        let (red, black) = m.next_colours(higher_red).expect("a game is due");
        m.record_game(game(red, black, outcome))
            .expect("legal game")
    }

    #[test]
    fn a_best_of_three_won_two_nil_stops_after_two_games() {
        let mut m = Match::new(1, 8, MatchRules::default()).expect("valid");
        // Game 1 by lot: the lot gives Red to seed 8.
        assert!(matches!(
            m.state(),
            MatchState::NextGame {
                colours: NextColours::Lot,
                ..
            }
        ));
        play(&mut m, false, BlackWins); // seed 1 wins as Black
        assert_eq!(
            m.state(),
            MatchState::NextGame {
                phase: GamePhase::Regular { number: 2 },
                colours: NextColours::Fixed { red: 1, black: 8 },
            }
        );
        let s = play(&mut m, true, RedWins); // seed 1 wins again: 4-0, decided.
        assert_eq!(
            s,
            MatchState::Decided {
                winner: 1,
                loser: 8,
                by: DecidedBy::Regular
            }
        );
        assert!(m.record_game(game(1, 8, Draw)).is_err());
    }

    #[test]
    fn a_match_level_after_two_games_is_decided_in_game_three() {
        let rules = MatchRules {
            first_game: OpenColours::HigherSeedRed,
            later_odd_games: LaterOddGames::Alternate,
            ..MatchRules::default()
        };
        let mut m = Match::new(4, 5, rules).expect("valid");
        play(&mut m, true, RedWins); // 4 wins as Red: 2-0
        play(&mut m, true, RedWins); // 5 wins as Red: 2-2
                                     // Alternate: game 3 has the game-1 Red player Red again.
        assert_eq!(m.next_colours(false), Some((4, 5)));
        let s = play(&mut m, true, BlackWins);
        assert_eq!(m.score().lower_points, 4);
        assert_eq!(
            s,
            MatchState::Decided {
                winner: 5,
                loser: 4,
                by: DecidedBy::Regular
            }
        );
    }

    #[test]
    fn a_draw_and_a_win_decide_early_by_points_but_not_by_wins() {
        // Points: 3-1 after two games, one game left (2 points): 3 > 1 + 2 is false → go on.
        let mut m = Match::new(1, 2, MatchRules::default()).expect("valid");
        play(&mut m, true, Draw);
        play(&mut m, true, RedWins); // lower seed Red in game 2 wins: 1-3
        assert!(matches!(m.state(), MatchState::NextGame { .. }));
        play(&mut m, true, Draw); // 2-4
        assert_eq!(m.result(), Some((2, 1)));
        // Wins: one win and two draws also decides (1 win v 0).
        let rules = MatchRules {
            decide_by: DecideBy::Wins,
            ..MatchRules::default()
        };
        let mut w = Match::new(1, 2, rules).expect("valid");
        play(&mut w, true, RedWins);
        play(&mut w, true, Draw);
        assert!(matches!(w.state(), MatchState::NextGame { .. }));
        play(&mut w, true, Draw);
        assert_eq!(w.result(), Some((1, 2)));
    }

    #[test]
    fn a_tie_goes_to_rapid_then_armageddon_where_a_draw_is_a_black_win() {
        let mut m = Match::new(3, 6, MatchRules::default()).expect("valid");
        play(&mut m, true, RedWins); // 3: 2-0
        play(&mut m, true, RedWins); // 6 as Red: 2-2
        play(&mut m, true, Draw); // new lot, 3 Red: 3-3
                                  // Rapid: colours swapped from game 3.
        match m.state() {
            MatchState::NextGame {
                phase: GamePhase::Tiebreak { stage, kind, .. },
                colours,
            } => {
                assert_eq!((stage, kind), (0, TiebreakKind::Rapid));
                assert_eq!(colours, NextColours::Fixed { red: 6, black: 3 });
            }
            other => panic!("expected a rapid game, got {other:?}"),
        }
        play(&mut m, true, Draw);
        // Armageddon by lot: the lot gives Red to seed 6; a draw is a Black (seed 3) win.
        assert!(matches!(
            m.state(),
            MatchState::NextGame {
                phase: GamePhase::Tiebreak {
                    kind: TiebreakKind::Armageddon,
                    ..
                },
                colours: NextColours::Lot
            }
        ));
        let s = play(&mut m, false, Draw);
        assert_eq!(
            s,
            MatchState::Decided {
                winner: 3,
                loser: 6,
                by: DecidedBy::Tiebreak(1)
            }
        );
    }

    #[test]
    fn a_decisive_rapid_game_ends_the_match() {
        let mut m = Match::new(1, 2, MatchRules::best_of(1)).expect("valid");
        play(&mut m, true, Draw);
        let s = play(&mut m, true, RedWins); // rapid colours swapped: 2 is Red and wins
        assert_eq!(
            s,
            MatchState::Decided {
                winner: 2,
                loser: 1,
                by: DecidedBy::Tiebreak(0)
            }
        );
    }

    #[test]
    fn an_exhausted_chain_needs_a_lot() {
        let rules = MatchRules {
            tiebreaks: vec![],
            ..MatchRules::best_of(2)
        };
        let mut m = Match::new(1, 2, rules).expect("valid");
        play(&mut m, true, Draw);
        play(&mut m, true, Draw);
        assert_eq!(m.state(), MatchState::NeedsLot);
        assert!(m.record_lot(7).is_err());
        assert_eq!(m.record_lot(2).expect("lot is due"), m.state());
        assert_eq!(m.result(), Some((2, 1)));
    }

    #[test]
    fn fixed_colours_cannot_be_contradicted_and_play_all_plays_on() {
        let rules = MatchRules {
            play_all: true,
            first_game: OpenColours::HigherSeedRed,
            ..MatchRules::default()
        };
        let mut m = Match::new(1, 2, rules).expect("valid");
        assert_eq!(
            m.record_game(game(2, 1, RedWins)),
            Err(KnockoutError::WrongColours)
        );
        play(&mut m, true, RedWins);
        play(&mut m, true, BlackWins);
        assert!(matches!(m.state(), MatchState::NextGame { .. }));
        play(&mut m, true, Draw);
        assert_eq!(m.result(), Some((1, 2)));
    }

    #[test]
    fn a_match_round_trips_through_serde_and_replays_to_the_same_state() {
        let mut m = Match::playoff(11, 22, MatchRules::default()).expect("valid");
        play(&mut m, true, Draw);
        let json = serde_json::to_string(&m).expect("serialises");
        let back: Match = serde_json::from_str(&json).expect("deserialises");
        assert_eq!(back, m);
        let mut replay = Match::playoff(11, 22, MatchRules::default()).expect("valid");
        for g in &m.games {
            replay.record_game(*g).expect("replays");
        }
        assert_eq!(replay, m);
    }
}
