//! The typed vocabularies of the domain: statuses, kinds, systems and roles. Each is an enum
//! stored as `text` (the migrations' `check` constraints list the same words), read and
//! written by sqlx, serialised by serde and documented in the OpenAPI document; `ALL` gives
//! form choices and validation the list once.

/// Declares a vocabulary: its variants with the words stored and sent for them.
macro_rules! vocabulary {
    (
        $(#[$meta:meta])*
        $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident = $text:literal ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(
            Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord,
            serde::Serialize, serde::Deserialize, sqlx::Type, utoipa::ToSchema,
        )]
        // The words are the variants' names in snake case (a test checks they match the
        // words given): utoipa reads `rename_all`, not a `rename` a macro passes through.
        #[sqlx(type_name = "text", rename_all = "snake_case")]
        #[serde(rename_all = "snake_case")]
        pub enum $name {
            $(
                $(#[$vmeta])*
                $variant,
            )+
        }

        impl $name {
            /// Every value, in the order forms list them.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// Every value's word, in the same order (form choices).
            pub const WORDS: &'static [&'static str] = &[$($text),+];

            /// The word stored and sent for this value.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)+
                }
            }
        }

        impl std::str::FromStr for $name {
            type Err = UnknownWord;

            fn from_str(text: &str) -> Result<$name, UnknownWord> {
                match text {
                    $($text => Ok($name::$variant),)+
                    _ => Err(UnknownWord(text.to_string())),
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

/// A word that is not in the vocabulary it was read as.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown value {0:?}")]
pub struct UnknownWord(pub String);

vocabulary! {
    /// A round's status: paired (arbiters only), published, completed (every result in).
    RoundStatus {
        /// Paired, not yet public.
        Paired = "paired",
        /// Public; results are being entered.
        Published = "published",
        /// Every game has a result.
        Completed = "completed",
    }
}

vocabulary! {
    /// A section's status (组别状态): open for entries, running, finished, or cancelled.
    SectionStatus {
        /// Taking entries; no round paired yet.
        Open = "open",
        /// Rounds are being played.
        Running = "running",
        /// Every round played.
        Finished = "finished",
        /// Called off: nothing more is paired or entered.
        Cancelled = "cancelled",
    }
}

vocabulary! {
    /// Who plays a seat: one player, or a doubles team of two (双打).
    EntryType {
        /// One player.
        Individual = "individual",
        /// A team of two.
        Doubles = "doubles",
        /// A team of 2–10 boards and its reserves (团体赛, issue #41).
        Team = "team",
    }
}

vocabulary! {
    /// A section's pairing system.
    PairingSystem {
        /// The Chinese score-group system (积分编排).
        Chinese = "chinese",
        /// The FIDE Dutch system.
        Dutch = "dutch",
        /// A round robin by the Berger tables.
        RoundRobin = "round_robin",
    }
}

vocabulary! {
    /// How a section's stages overlap (issue #40).
    StageFormat {
        /// The Swiss alone (a knockout, if any, seeded from the final standings).
        Swiss = "swiss",
        /// AXF: a knockout seeded from the standings after a round while the others play on.
        KnockoutAfterRound = "knockout_after_round",
        /// WXF: the top two after round n − 1 play a final in round n on board 1.
        FinalLastRound = "final_last_round",
    }
}

vocabulary! {
    /// Who has Red in a last-round final (issue #40).
    FinalColourRule {
        /// Drawn by lot.
        Lot = "lot",
        /// The leader after round n − 1.
        HigherSeed = "higher_seed",
        /// The Swiss colour rules (colour balance, then the latest differing round).
        Swiss = "swiss",
    }
}

vocabulary! {
    /// How a hidden-piece game's rounds get their set-ups (Jieqi, Banqi).
    SetupMode {
        /// No set-up (Xiangqi, or hidden pieces shuffled at the board).
        None = "none",
        /// One set-up for every board of a round.
        Duplicate = "duplicate",
        /// A set-up per board.
        PerBoard = "per_board",
    }
}

vocabulary! {
    /// What a section does with results the players report themselves (SPEC §5).
    SelfReport {
        /// Players cannot report; the desk enters every result.
        Off = "off",
        /// Agreeing reports wait in the desk's queue, where one key accepts them.
        Desk = "desk",
        /// Agreeing reports are accepted at once; disagreements still go to the desk.
        Agreement = "agreement",
    }
}

vocabulary! {
    /// The game a tournament plays: Xiangqi, or one of its hidden-piece variants.
    Game {
        /// Chinese chess (象棋).
        Xiangqi = "xiangqi",
        /// Hidden-piece Xiangqi (揭棋).
        Jieqi = "jieqi",
        /// Half-board hidden-piece chess (暗棋).
        Banqi = "banqi",
    }
}

vocabulary! {
    /// A tournament's status; it follows its sections' (`tournaments::follow_progress`).
    TournamentStatus {
        /// Being prepared; not yet taking registrations.
        Draft = "draft",
        /// Taking registrations.
        Registration = "registration",
        /// Rounds are being played.
        Running = "running",
        /// Every section finished.
        Finished = "finished",
        /// Called off.
        Cancelled = "cancelled",
    }
}

vocabulary! {
    /// An entrant's status: playing, or withdrawn from a round on.
    EntrantStatus {
        /// Paired in the rounds to come.
        Active = "active",
        /// Not paired any more (from `withdrawn_from_round`).
        Withdrawn = "withdrawn",
    }
}

vocabulary! {
    /// A registration's status.
    RegistrationStatus {
        /// Received; waiting for the desk or the payment.
        Pending = "pending",
        /// Accepted: the registration has an entrant.
        Confirmed = "confirmed",
        /// The section is full; waiting in arrival order for a place.
        Waitlisted = "waitlisted",
        /// Withdrawn by the player or the desk.
        Withdrawn = "withdrawn",
        /// Cancelled with its section or tournament.
        Cancelled = "cancelled",
    }
}

vocabulary! {
    /// Where a registration's money stands (derived from its payments).
    PaymentState {
        /// Nothing paid.
        Unpaid = "unpaid",
        /// The fee is paid.
        Paid = "paid",
        /// Paid, withdrawn, not yet refunded.
        RefundDue = "refund_due",
        /// Paid and refunded.
        Refunded = "refunded",
    }
}

vocabulary! {
    /// A line of the desk's ledger: money in or money back.
    PaymentKind {
        /// Money received.
        Payment = "payment",
        /// Money paid back.
        Refund = "refund",
    }
}

vocabulary! {
    /// An account's role on the whole server.
    UserRole {
        /// Manages users and every tournament.
        Admin = "admin",
        /// Acts where a tournament's staff list names them.
        User = "user",
    }
}

vocabulary! {
    /// A staff member's role in one tournament.
    StaffRole {
        /// Runs the tournament, manages its staff.
        ChiefArbiter = "chief_arbiter",
        /// Pairs, publishes and enters results.
        Arbiter = "arbiter",
        /// Enters results.
        Scorer = "scorer",
    }
}

vocabulary! {
    /// How a tie for a place (a prize, a knockout seed) was broken.
    TieMethod {
        /// By a drawn lot (its seed stored).
        Lot = "lot",
        /// In the order an arbiter gave.
        Manual = "manual",
    }
}

vocabulary! {
    /// A bracket: a section's knockout stage, or a playoff between sections.
    BracketKind {
        /// A section's knockout stage.
        Knockout = "knockout",
        /// A playoff between sections' winners.
        Playoff = "playoff",
    }
}

vocabulary! {
    /// How a knockout bracket's hidden-piece set-ups are drawn (issue #40).
    KnockoutSetupMode {
        /// A set-up of its own for every game of every match (tiebreak games too).
        PerGame = "per_game",
        /// One set-up per knockout round and game number, the same on every match of the
        /// round (tiebreak games get their own, by their number).
        Duplicate = "duplicate",
    }
}

vocabulary! {
    /// What happens to a captured hidden piece in a knockout stage (seed 001 §3.2.4).
    CaptureRule {
        /// The capturing player may look at it, then it lies face down.
        CapturerSees = "capturer_sees",
        /// It is turned face down at once; neither side may look.
        FaceDown = "face_down",
    }
}

vocabulary! {
    /// Who has Red in a knockout match's first game.
    FirstGameColour {
        /// Drawn by lot.
        Lot = "lot",
        /// The higher seed.
        HigherSeed = "higher_seed",
    }
}

vocabulary! {
    /// Who has Red in a match's odd games after the first.
    LaterOddColours {
        /// A new lot.
        Lot = "lot",
        /// Alternating from game 1.
        Alternate = "alternate",
    }
}

vocabulary! {
    /// What decides a knockout match.
    MatchScoring {
        /// Points (a draw counts half).
        Points = "points",
        /// Games won.
        Wins = "wins",
    }
}

vocabulary! {
    /// A side of the board.
    Side {
        /// Red, who moves first.
        Red = "red",
        /// Black.
        Black = "black",
    }
}

vocabulary! {
    /// How a section's entrants are split into new sections before round 1.
    SplitMethod {
        /// At random, from a seed that replays the split.
        Random = "random",
        /// By rating, in a snake (1, 2, …, k, k, …, 2, 1).
        RatingSnake = "rating_snake",
    }
}

vocabulary! {
    /// A bye an entrant asked for ahead of a round.
    ByeKind {
        /// Half a point.
        Half = "half",
        /// No point (the entrant is away; any number of these).
        Zero = "zero",
        /// A full point.
        Full = "full",
    }
}

vocabulary! {
    /// A game of a knockout match: a regular game, or a tiebreak game.
    GameKind {
        /// A game of the match proper.
        Regular = "regular",
        /// A rapid tiebreak game.
        Rapid = "rapid",
        /// The armageddon game (a draw goes to Black).
        Armageddon = "armageddon",
    }
}

vocabulary! {
    /// What decided a knockout match (not stored: replayed from its games).
    MatchDecision {
        /// The regular games.
        Regular = "regular",
        /// Rapid tiebreak games.
        Rapid = "rapid",
        /// The armageddon game.
        Armageddon = "armageddon",
        /// A lot, after an exhausted tiebreak chain.
        Lot = "lot",
    }
}

vocabulary! {
    /// A game's result (对局结果), always told from Red's side; the foul rule (a second
    /// foul loses the game) can turn an entered result into another, `double_loss` included.
    GameResult {
        /// Red won (1-0).
        RedWins = "red_wins",
        /// Black won (0-1).
        BlackWins = "black_wins",
        /// A draw (½-½).
        Draw = "draw",
        /// Red forfeited: Black wins without play (-/+).
        RedForfeits = "red_forfeits",
        /// Black forfeited: Red wins without play (+/-).
        BlackForfeits = "black_forfeits",
        /// Neither came (-/-).
        DoubleForfeit = "double_forfeit",
        /// Both reached the foul threshold: a played game lost by both (only the foul rule
        /// gives it; nobody enters it).
        DoubleLoss = "double_loss",
    }
}

impl Side {
    /// The word for the core's side.
    pub fn of(side: arbiter_core::model::Side) -> Side {
        match side {
            arbiter_core::model::Side::Red => Side::Red,
            arbiter_core::model::Side::Black => Side::Black,
        }
    }
}

impl GameResult {
    /// The results a desk, a scorer or a player can enter, in the order forms offer them
    /// (as the quick line's keys `1 = 0 + -` read from Red's side, then both absent).
    pub const ENTERED: &'static [GameResult] = &[
        GameResult::RedWins,
        GameResult::Draw,
        GameResult::BlackWins,
        GameResult::BlackForfeits,
        GameResult::RedForfeits,
        GameResult::DoubleForfeit,
    ];

    /// The results of a knockout game, where someone must have come (a double forfeit
    /// has no winner to carry forward).
    pub const MATCH_GAME: &'static [GameResult] = &[
        GameResult::RedWins,
        GameResult::Draw,
        GameResult::BlackWins,
        GameResult::BlackForfeits,
        GameResult::RedForfeits,
    ];

    /// A result without play (a forfeit by one side or both).
    pub fn is_forfeit(self) -> bool {
        matches!(
            self,
            GameResult::RedForfeits | GameResult::BlackForfeits | GameResult::DoubleForfeit
        )
    }

    /// The side that took the game, if one did (on the board or by the other's forfeit).
    pub fn winner(self) -> Option<Side> {
        match self {
            GameResult::RedWins | GameResult::BlackForfeits => Some(Side::Red),
            GameResult::BlackWins | GameResult::RedForfeits => Some(Side::Black),
            GameResult::Draw | GameResult::DoubleForfeit | GameResult::DoubleLoss => None,
        }
    }
}

vocabulary! {
    /// How round 1 numbers the entrants (第一轮序号): as they registered, by rating, or by
    /// lot.
    RoundOneOrder {
        /// In registration order.
        Registration = "registration",
        /// By rating, highest first.
        Rating = "rating",
        /// By lot, drawn when round 1 is paired.
        Lot = "lot",
    }
}

vocabulary! {
    /// How Buchholz-like tiebreaks count a round without an opponent (未赛轮次).
    Unplayed {
        /// Chinese practice: no adjustment.
        Cxa = "cxa",
        /// FIDE 2023: a dummy opponent.
        Fide2023 = "fide2023",
        /// FIDE 2026: a capped dummy opponent.
        Fide2026 = "fide2026",
        /// No handling: such rounds count 0.
        None = "none",
    }
}

impl Unplayed {
    /// The core's mode.
    pub fn mode(self) -> arbiter_core::standings::UnplayedMode {
        use arbiter_core::standings::UnplayedMode as Mode;
        match self {
            Unplayed::Cxa => Mode::Cxa,
            Unplayed::Fide2023 => Mode::Fide2023,
            Unplayed::Fide2026 => Mode::Fide2026,
            Unplayed::None => Mode::None,
        }
    }

    /// The word for the core's mode.
    pub fn of(mode: arbiter_core::standings::UnplayedMode) -> Unplayed {
        use arbiter_core::standings::UnplayedMode as Mode;
        match mode {
            Mode::Cxa => Unplayed::Cxa,
            Mode::Fide2023 => Unplayed::Fide2023,
            Mode::Fide2026 => Unplayed::Fide2026,
            Mode::None => Unplayed::None,
        }
    }
}

vocabulary! {
    /// The notation a game record is typed in (记谱法).
    RecordNotation {
        /// ICCS coordinates (`h2e2`).
        Iccs = "iccs",
        /// Chinese (炮二平五).
        Chinese = "chinese",
        /// WXF (`C2.5`).
        Wxf = "wxf",
        /// Banqi's own turn notation (`b2=K`, `b2-b3`).
        Banqi = "banqi",
    }
}

vocabulary! {
    /// Where a replayed record stands after its last good half-move.
    ReplayStatus {
        /// Play goes on.
        Ongoing = "ongoing",
        /// The side to move is checkmated.
        Checkmated = "checkmated",
        /// The side to move has no legal move (a loss in Xiangqi).
        Stalemated = "stalemated",
        /// Banqi: Red has won.
        RedWon = "red_won",
        /// Banqi: Black has won.
        BlackWon = "black_won",
        /// Banqi: drawn by the move count.
        Draw = "draw",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_read_back_as_their_values() {
        for status in RoundStatus::ALL {
            assert_eq!(status.as_str().parse::<RoundStatus>(), Ok(*status));
            assert_eq!(
                serde_json::to_value(status).expect("json"),
                serde_json::json!(status.as_str())
            );
        }
        assert!("Paired".parse::<RoundStatus>().is_err());
    }

    /// The OpenAPI document lists the same words as serde and the database use.
    fn schema_words<T: utoipa::PartialSchema>() -> Vec<String> {
        let schema = serde_json::to_value(T::schema()).expect("schema");
        schema["enum"]
            .as_array()
            .expect("an enum schema")
            .iter()
            .map(|v| v.as_str().expect("a word").to_string())
            .collect()
    }

    fn words_of<T: Copy + std::fmt::Display>(all: &[T]) -> Vec<String> {
        all.iter().map(|v| v.to_string()).collect()
    }

    #[test]
    fn the_openapi_document_lists_the_words() {
        assert_eq!(schema_words::<RoundStatus>(), words_of(RoundStatus::ALL));
        assert_eq!(
            schema_words::<SectionStatus>(),
            words_of(SectionStatus::ALL)
        );
        assert_eq!(schema_words::<EntryType>(), words_of(EntryType::ALL));
        assert_eq!(
            schema_words::<PairingSystem>(),
            words_of(PairingSystem::ALL)
        );
        assert_eq!(schema_words::<SetupMode>(), words_of(SetupMode::ALL));
        assert_eq!(schema_words::<SelfReport>(), words_of(SelfReport::ALL));
        for mode in SetupMode::ALL {
            assert_eq!(
                serde_json::to_value(mode).expect("json"),
                serde_json::json!(mode.as_str())
            );
        }
    }

    /// Each word reads back as its value, serde sends it, and the OpenAPI document lists it.
    fn round_trips<T>(all: &[T])
    where
        T: Copy + PartialEq + std::fmt::Debug + std::fmt::Display + std::str::FromStr,
        T: serde::Serialize + serde::de::DeserializeOwned + utoipa::PartialSchema,
        <T as std::str::FromStr>::Err: std::fmt::Debug,
    {
        for value in all {
            let word = value.to_string();
            assert_eq!(word.parse::<T>().ok(), Some(*value));
            assert_eq!(
                serde_json::to_value(value).expect("json"),
                serde_json::json!(word)
            );
            let back: T = serde_json::from_value(serde_json::json!(word)).expect("read");
            assert_eq!(back, *value);
        }
        assert_eq!(schema_words::<T>(), words_of(all));
        assert!("".parse::<T>().is_err());
    }

    /// The words are the ones the migrations' `check` constraints list, in their order.
    #[test]
    fn the_later_vocabularies_keep_the_words_of_the_schema() {
        round_trips(Game::ALL);
        assert_eq!(Game::WORDS, ["xiangqi", "jieqi", "banqi"]);
        round_trips(TournamentStatus::ALL);
        assert_eq!(
            TournamentStatus::WORDS,
            ["draft", "registration", "running", "finished", "cancelled"]
        );
        round_trips(EntrantStatus::ALL);
        assert_eq!(EntrantStatus::WORDS, ["active", "withdrawn"]);
        round_trips(RegistrationStatus::ALL);
        assert_eq!(
            RegistrationStatus::WORDS,
            [
                "pending",
                "confirmed",
                "waitlisted",
                "withdrawn",
                "cancelled"
            ]
        );
        round_trips(PaymentState::ALL);
        assert_eq!(
            PaymentState::WORDS,
            ["unpaid", "paid", "refund_due", "refunded"]
        );
        round_trips(PaymentKind::ALL);
        assert_eq!(PaymentKind::WORDS, ["payment", "refund"]);
        round_trips(UserRole::ALL);
        assert_eq!(UserRole::WORDS, ["admin", "user"]);
        round_trips(StaffRole::ALL);
        assert_eq!(StaffRole::WORDS, ["chief_arbiter", "arbiter", "scorer"]);
        round_trips(TieMethod::ALL);
        assert_eq!(TieMethod::WORDS, ["lot", "manual"]);
        round_trips(KnockoutSetupMode::ALL);
        assert_eq!(KnockoutSetupMode::WORDS, ["per_game", "duplicate"]);
        round_trips(CaptureRule::ALL);
        assert_eq!(CaptureRule::WORDS, ["capturer_sees", "face_down"]);
        round_trips(BracketKind::ALL);
        assert_eq!(BracketKind::WORDS, ["knockout", "playoff"]);
        round_trips(FirstGameColour::ALL);
        assert_eq!(FirstGameColour::WORDS, ["lot", "higher_seed"]);
        round_trips(LaterOddColours::ALL);
        assert_eq!(LaterOddColours::WORDS, ["lot", "alternate"]);
        round_trips(MatchScoring::ALL);
        assert_eq!(MatchScoring::WORDS, ["points", "wins"]);
        round_trips(Side::ALL);
        assert_eq!(Side::WORDS, ["red", "black"]);
        round_trips(ByeKind::ALL);
        assert_eq!(ByeKind::WORDS, ["half", "zero", "full"]);
        round_trips(GameKind::ALL);
        assert_eq!(GameKind::WORDS, ["regular", "rapid", "armageddon"]);
        round_trips(MatchDecision::ALL);
        assert_eq!(
            MatchDecision::WORDS,
            ["regular", "rapid", "armageddon", "lot"]
        );
        round_trips(GameResult::ALL);
        assert_eq!(
            GameResult::WORDS,
            [
                "red_wins",
                "black_wins",
                "draw",
                "red_forfeits",
                "black_forfeits",
                "double_forfeit",
                "double_loss"
            ]
        );
        assert!(GameResult::ENTERED
            .iter()
            .chain(GameResult::MATCH_GAME)
            .all(|r| *r != GameResult::DoubleLoss));
        round_trips(RoundOneOrder::ALL);
        assert_eq!(RoundOneOrder::WORDS, ["registration", "rating", "lot"]);
        round_trips(Unplayed::ALL);
        assert_eq!(Unplayed::WORDS, ["cxa", "fide2023", "fide2026", "none"]);
        for mode in Unplayed::ALL {
            assert_eq!(Unplayed::of(mode.mode()), *mode);
            assert_eq!(mode.as_str().parse(), Ok(mode.mode()));
        }
        round_trips(RecordNotation::ALL);
        assert_eq!(RecordNotation::WORDS, ["iccs", "chinese", "wxf", "banqi"]);
        // Not stored: the replay's status and the split's input and outcome.
        round_trips(ReplayStatus::ALL);
        round_trips(SplitMethod::ALL);
        assert_eq!(SplitMethod::WORDS, ["random", "rating_snake"]);
    }
}
