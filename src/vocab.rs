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
}
