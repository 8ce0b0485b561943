//! Subcommands other than `serve`: administration and the test harness's throwaway database.

use crate::config::ServerArgs;
use crate::embedded_pg::{self, EmbeddedPg};
use crate::service;
use crate::startup::{self, Database};
use anyhow::Context as _;
use std::io::BufRead as _;

/// Opens the database for a command: the running server's embedded cluster if there is one,
/// else the cluster started for the command (stopped when the `Database` is dropped), or
/// `DATABASE_URL`.
async fn open_for_command(args: &ServerArgs) -> anyhow::Result<Database> {
    match (
        &args.database_url,
        EmbeddedPg::running_server_socket(&args.data_dir),
    ) {
        (None, Some(socket_dir)) => {
            let options = embedded_pg::socket_options(&socket_dir, embedded_pg::DB_NAME)
                .password(&embedded_pg::read_secret(&args.data_dir)?);
            let pool = startup::connect(options, &startup::Timeouts::from_args(args)).await?;
            startup::migrate(&pool).await?;
            Ok(Database {
                pool,
                embedded: None,
            })
        }
        _ => Database::open(args).await,
    }
}

/// The first line of standard input (a password), without its line end.
fn read_password() -> anyhow::Result<String> {
    let mut password = String::new();
    std::io::stdin()
        .lock()
        .read_line(&mut password)
        .context("reading the password from standard input")?;
    Ok(password.trim_end_matches(['\r', '\n']).to_string())
}

/// Runs `work` on the command's database and closes it afterwards.
async fn with_database<T>(
    args: &ServerArgs,
    work: impl AsyncFnOnce(&sqlx::PgPool) -> service::Result<T>,
) -> anyhow::Result<T> {
    let database = open_for_command(args).await?;
    let result = work(&database.pool).await;
    database.pool.close().await;
    drop(database);
    match result {
        Ok(value) => Ok(value),
        Err(service::Error::Invalid { message, .. }) => anyhow::bail!("{}", message.en()),
        Err(err) => Err(err.into()),
    }
}

/// `arbiter admin create NAME`: reads the password from the first line of standard input.
///
/// On the embedded database this uses the running server's cluster if there is one, and
/// otherwise starts the cluster itself and stops it afterwards.
pub async fn create_admin(args: &ServerArgs, name: &str) -> anyhow::Result<()> {
    create_user(args, name, "admin").await
}

/// `arbiter user create NAME --role admin|user` (password from standard input).
pub async fn create_user(args: &ServerArgs, name: &str, role: &str) -> anyhow::Result<()> {
    let password = read_password()?;
    let id = with_database(args, async |pool| {
        service::users::create_user(pool, name, &password, role).await
    })
    .await?;
    println!("created {role} {name} ({id})");
    Ok(())
}

/// `arbiter user passwd NAME` (password from standard input); the user's sessions end.
pub async fn set_password(args: &ServerArgs, name: &str) -> anyhow::Result<()> {
    let password = read_password()?;
    with_database(args, async |pool| {
        service::users::set_password_by_name(pool, name, &password).await
    })
    .await?;
    println!("password of {name} changed; its sessions ended");
    Ok(())
}

/// `arbiter user list`: one line per account, tab-separated: name, role, state, created.
pub async fn list_users(args: &ServerArgs) -> anyhow::Result<()> {
    let users = with_database(args, async |pool| Ok(crate::db::user::list(pool).await?)).await?;
    for user in users {
        println!(
            "{}\t{}\t{}\t{}",
            user.username,
            user.role,
            if user.disabled { "disabled" } else { "active" },
            user.created_at.format("%Y-%m-%d %H:%M")
        );
    }
    Ok(())
}

/// `arbiter with-db -- COMMAND…`: runs COMMAND with `DATABASE_URL` set to a throwaway cluster
/// in a temporary folder, which is stopped and deleted afterwards whatever COMMAND does.
/// Returns COMMAND's exit code.
pub fn with_throwaway_db(command: &[String]) -> anyhow::Result<i32> {
    let (program, rest) = command.split_first().context("no command given")?;
    let folder = std::env::temp_dir().join(format!("arbiter-test-db-{}", std::process::id()));
    let pg = EmbeddedPg::start_unlocked(&folder)?;
    let url = format!(
        "postgres://{}:{}@localhost/postgres?host={}",
        embedded_pg::DB_USER,
        pg.secret(),
        pg.socket_dir().display()
    );
    eprintln!(
        "with-db: throwaway PostgreSQL at {}",
        pg.socket_dir().display()
    );
    let status = std::process::Command::new(program)
        .args(rest)
        .env("DATABASE_URL", &url)
        .status();
    drop(pg);
    let _ = std::fs::remove_dir_all(&folder);
    let status = status.with_context(|| format!("running {program}"))?;
    Ok(status.code().unwrap_or(1))
}

/// How a file tool ended: what to print, and the exit code.
pub struct ToolOutcome {
    /// Standard output.
    pub stdout: String,
    /// Standard error (with a trailing newline when not empty).
    pub stderr: String,
    /// Exit code: 0 success, 1 no result (e.g. no legal pairing), 2 invalid input.
    pub code: u8,
}

impl ToolOutcome {
    fn ok(stdout: String) -> ToolOutcome {
        ToolOutcome {
            stdout,
            stderr: String::new(),
            code: 0,
        }
    }

    fn fail(code: u8, message: impl std::fmt::Display) -> ToolOutcome {
        ToolOutcome {
            stdout: String::new(),
            stderr: format!("{message}\n"),
            code,
        }
    }
}

fn read_file(path: &std::path::Path) -> Result<String, ToolOutcome> {
    let bytes = std::fs::read(path)
        .map_err(|e| ToolOutcome::fail(2, format!("{}: {e}", path.display())))?;
    String::from_utf8(bytes).map_err(|e| {
        ToolOutcome::fail(
            2,
            format!(
                "{}: not UTF-8 text (byte {})",
                path.display(),
                e.utf8_error().valid_up_to()
            ),
        )
    })
}

/// `arbiter trf normalize FILE`: parse and write back.
pub fn trf_normalize(path: &std::path::Path) -> ToolOutcome {
    let text = match read_file(path) {
        Ok(text) => text,
        Err(outcome) => return outcome,
    };
    match arbiter_core::trf::parse(&text) {
        Ok(tournament) => ToolOutcome::ok(arbiter_core::trf::write(&tournament)),
        Err(err) => ToolOutcome::fail(2, err),
    }
}

/// `arbiter standings FILE …`: the TSV of the core's standings command.
pub fn standings(args: &crate::config::StandingsArgs) -> ToolOutcome {
    let text = match read_file(&args.file) {
        Ok(text) => text,
        Err(outcome) => return outcome,
    };
    let command = arbiter_core::standings::CommandArgs {
        points: args.points.clone(),
        tiebreaks: args.tiebreaks.clone(),
        preset: args.preset.clone(),
        unplayed: args.unplayed.clone(),
    };
    match arbiter_core::standings::command(&text, &command) {
        Ok(tsv) => ToolOutcome::ok(tsv),
        Err(err) => ToolOutcome::fail(2, err),
    }
}

/// `arbiter setup --game G [--seed N]`: a set-up sheet with its commitment; from the operating
/// system's CSPRNG unless a seed asks for a reproducible one.
pub fn setup(args: &crate::config::SetupArgs) -> ToolOutcome {
    use arbiter_core::setup::Game;
    let game = match args.game {
        crate::config::GameArg::Jieqi => Game::Jieqi,
        crate::config::GameArg::Banqi => Game::Banqi,
    };
    ToolOutcome::ok(match args.seed {
        Some(seed) => arbiter_core::setup::setup_text(game, seed),
        None => arbiter_core::setup::setup_sheet_from_rng(game, &mut rand_core::OsRng),
    })
}

fn start_position(
    game: crate::config::RulesGameArg,
    fen: Option<&str>,
) -> Result<arbiter_core::game::Position, ToolOutcome> {
    use arbiter_core::game::{Position, Variant};
    let pos = match fen {
        Some(fen) => {
            Position::from_fen(fen).map_err(|e| ToolOutcome::fail(2, format!("FEN: {e}")))?
        }
        None => match game {
            crate::config::RulesGameArg::Xiangqi => Position::xiangqi_start(),
            crate::config::RulesGameArg::Jieqi => Position::jieqi_start(),
        },
    };
    match (game, pos.variant()) {
        (crate::config::RulesGameArg::Xiangqi, Variant::Jieqi) => Err(ToolOutcome::fail(
            2,
            "FEN: face-down pieces (X/x) are Jieqi; use --game jieqi",
        )),
        _ => Ok(pos),
    }
}

/// `arbiter perft --game xiangqi FEN DEPTH`: the number of leaf nodes and a newline; exit 2
/// on a bad FEN.
pub fn perft(args: &crate::config::PerftArgs) -> ToolOutcome {
    match start_position(args.game, Some(&args.fen)) {
        Ok(pos) => ToolOutcome::ok(format!("{}\n", arbiter_core::game::perft(&pos, args.depth))),
        Err(outcome) => outcome,
    }
}

/// `arbiter record convert --from N --to N [--fen FEN] [--script S] FILE`: one move per line
/// in the target notation; the first unreadable, illegal or ambiguous move ends it with
/// `ply N: …` and exit 2 (the moves before it are printed).
pub fn record_convert(args: &crate::config::ConvertArgs) -> ToolOutcome {
    let text = match read_file(&args.file) {
        Ok(text) => text,
        Err(outcome) => return outcome,
    };
    convert_text(args, &text)
}

fn convert_text(args: &crate::config::ConvertArgs, text: &str) -> ToolOutcome {
    use crate::config::{NotationArg, ScriptArg};
    use arbiter_core::game::{record, Notation, Script};
    let notation = |n: NotationArg| match n {
        NotationArg::Iccs => Notation::Iccs,
        NotationArg::Wxf => Notation::Wxf,
        NotationArg::Chinese => Notation::Chinese,
    };
    let script = match args.script {
        ScriptArg::Simplified => Script::Simplified,
        ScriptArg::Traditional => Script::Traditional,
    };
    let start = match start_position(args.game, args.fen.as_deref()) {
        Ok(pos) => pos,
        Err(outcome) => return outcome,
    };
    let (lines, error) =
        record::convert(&start, text, notation(args.from), notation(args.to), script);
    let stdout: String = lines.iter().map(|l| format!("{l}\n")).collect();
    match error {
        None => ToolOutcome::ok(stdout),
        Some(err) => ToolOutcome {
            stdout,
            stderr: format!("{err}\n"),
            code: 2,
        },
    }
}

/// `arbiter pair --system dutch|chinese [--edition 2025|2017] FILE`: the next round in the
/// reference fixtures' format, honouring the file's `### arbiter forfeit_counts_as_met` line.
/// Exit 1 when no legal pairing exists, 2 on an invalid file.
pub fn pair(args: &crate::config::PairArgs) -> ToolOutcome {
    use arbiter_core::pairing::{self, PairingError};
    let text = match read_file(&args.file) {
        Ok(text) => text,
        Err(outcome) => return outcome,
    };
    let tournament = match arbiter_core::trf::parse(&text) {
        Ok(t) => t,
        Err(err) => return ToolOutcome::fail(2, err),
    };
    // A file exported by arbiter says whether a forfeit counts as met; else each system's
    // default (Dutch: no, as FIDE; Chinese: yes, SPEC §4).
    let forfeit_setting = arbiter_core::trf::SectionSettings::of(&tournament).forfeit_counts_as_met;
    let system = match args.system {
        crate::config::SystemArg::Dutch => {
            let edition = match args.edition {
                crate::config::EditionArg::E2025 => pairing::dutch::Edition::E2025,
                crate::config::EditionArg::E2017 => pairing::dutch::Edition::E2017,
            };
            pairing::System::Dutch(pairing::dutch::DutchOptions {
                edition,
                forfeit_counts_as_met: forfeit_setting.unwrap_or(false),
            })
        }
        crate::config::SystemArg::Chinese => {
            let defaults = pairing::chinese::ChineseOptions::default();
            pairing::System::Chinese(pairing::chinese::ChineseOptions {
                forfeit_counts_as_met: forfeit_setting.unwrap_or(defaults.forfeit_counts_as_met),
                ..defaults
            })
        }
    };
    match pairing::pair(&tournament, &system) {
        Ok(paired) => ToolOutcome::ok(paired.pairing.to_text()),
        Err(PairingError::NoValidPairing { reason }) => {
            ToolOutcome::fail(1, format!("no legal pairing exists: {reason}"))
        }
        Err(PairingError::InvalidState(reason)) => {
            ToolOutcome::fail(2, format!("invalid tournament: {reason}"))
        }
    }
}

/// `arbiter bench pair`: pairs round `--round` of a generated event of each size and prints
/// the wall and CPU time of that one pairing (issue #3's benchmark; build with `--release`).
pub fn bench_pair(args: &crate::config::BenchPairArgs) -> anyhow::Result<()> {
    use arbiter_core::generator::{generate, GeneratorConfig};
    use arbiter_core::pairing;
    use std::io::Write as _;
    if cfg!(debug_assertions) {
        eprintln!("note: a debug build; run `cargo run --release -- bench pair` for real figures");
    }
    println!(
        "system {:?}, round {}, seed {}",
        args.system, args.round, args.seed
    );
    for &entrants in &args.sizes {
        let config = GeneratorConfig {
            entrants,
            rounds_total: args.round.max(9),
            seed: args.seed,
            ..GeneratorConfig::default()
        };
        let history = generate(&config, args.round - 1)
            .map_err(|err| anyhow::anyhow!("generating {entrants} entrants: {err}"))?;
        let cpu_before = cpu_seconds();
        let started = std::time::Instant::now();
        let system = match args.system {
            crate::config::SystemArg::Dutch => {
                pairing::System::Dutch(pairing::dutch::DutchOptions::default())
            }
            crate::config::SystemArg::Chinese => {
                pairing::System::Chinese(pairing::chinese::ChineseOptions::default())
            }
        };
        let round = pairing::pair(&history, &system)
            .map_err(|err| anyhow::anyhow!("pairing {entrants} entrants: {err}"))?
            .pairing;
        let wall = started.elapsed().as_secs_f64();
        let cpu = cpu_seconds() - cpu_before;
        println!(
            "{entrants:>6} entrants: wall {wall:>8.3} s, CPU {cpu:>8.3} s, {} boards",
            round.boards.len()
        );
        std::io::stdout().flush()?;
    }
    Ok(())
}

/// User plus system CPU time of this process so far, so a busy machine does not inflate the
/// figures the way it inflates wall time.
fn cpu_seconds() -> f64 {
    use nix::sys::resource::{getrusage, UsageWho};
    getrusage(UsageWho::RUSAGE_SELF).map_or(0.0, |usage| {
        let seconds = |t: nix::sys::time::TimeVal| t.tv_sec() as f64 + t.tv_usec() as f64 / 1e6;
        seconds(usage.user_time()) + seconds(usage.system_time())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{
        BenchPairArgs, ConvertArgs, NotationArg, PerftArgs, RulesGameArg, ScriptArg, SystemArg,
    };

    #[test]
    fn the_pairing_benchmark_pairs_generated_events_of_each_size() {
        for system in [SystemArg::Dutch, SystemArg::Chinese] {
            let args = BenchPairArgs {
                sizes: vec![12, 31],
                round: 3,
                system,
                seed: 3,
            };
            bench_pair(&args).expect("small events pair");
        }
    }

    #[test]
    fn pair_honours_the_files_forfeit_setting_and_reports_contradictions() {
        use crate::config::{EditionArg, PairArgs};
        let dir = tempfile::tempdir().expect("temp dir");
        let run = |system: SystemArg, text: &str| {
            let file = dir.path().join("t.trf");
            std::fs::write(&file, text).expect("write");
            pair(&PairArgs {
                system,
                edition: EditionArg::E2025,
                file,
            })
        };
        // 1 beat 2 by forfeit in round 1 of 3.
        let players = format!(
            "001    1      A{:65}1.0           2 w +\n001    2      B{:65}0.0           1 b -\n",
            "", ""
        );
        let file = |line: &str| format!("012 Probe\nXXR 3\n{line}{players}");
        let fide = run(SystemArg::Dutch, &file(""));
        assert_eq!(
            (fide.code, fide.stdout.as_str()),
            (0, "1 2\n"),
            "{}",
            fide.stderr
        );
        for system in [SystemArg::Dutch, SystemArg::Chinese] {
            let met = run(system, &file("### arbiter forfeit_counts_as_met=true\n"));
            assert_eq!(met.code, 1, "{system:?}: {}{}", met.stdout, met.stderr);
        }
        let clash = run(SystemArg::Dutch, &file("").replace("1 b -", "1 w -"));
        assert_eq!(clash.code, 2);
        assert!(
            clash.stderr.starts_with("line 4, column 97: "),
            "{}",
            clash.stderr
        );
    }

    /// A TRF-16 player line: start number, points, and rounds as `(opponent, colour, result)`
    /// (`0000 - Z` for a round without a game).
    fn trf_player(no: u32, points: &str, rounds: &[&str]) -> String {
        let rounds: String = rounds.iter().map(|r| format!("  {r}")).collect();
        format!("001 {no:>4}      P{no:<64}{points:>4}{:6}{rounds}\n", "")
    }

    #[test]
    fn chinese_pair_gives_black_to_the_larger_colour_index_against_a_late_entrant() {
        // Issue #39: 4 played Black then Red (colour index +1, RULES §1.3 "Colour in a
        // formed pair", step 1) and lost both; 6 entered late (two `0000 - Z` rounds, index
        // 0). They meet on the 0 group's board in round 3: the larger index, 4, gets Black.
        // (5 v 1: 1's index −1 is larger than 5's −101, so 5 is Red; 2 v 3: 3 had Red twice
        // and must get Black.)
        use crate::config::{EditionArg, PairArgs};
        let dir = tempfile::tempdir().expect("temp dir");
        let file = dir.path().join("late.trf");
        let text = [
            "012 Late entrant\nXXR 7\n".to_string(),
            trf_player(1, "2.0", &["   2 w 1", "   3 b 1"]),
            trf_player(2, "1.0", &["   1 b 0", "0000 - U"]),
            trf_player(3, "1.0", &["   4 w 1", "   1 w 0"]),
            trf_player(4, "0.0", &["   3 b 0", "   5 w 0"]),
            trf_player(5, "2.0", &["0000 - U", "   4 b 1"]),
            trf_player(6, "0.0", &["0000 - Z", "0000 - Z"]),
        ]
        .concat();
        std::fs::write(&file, &text).expect("write");
        let out = pair(&PairArgs {
            system: SystemArg::Chinese,
            edition: EditionArg::E2025,
            file,
        });
        assert_eq!(
            (out.stdout.as_str(), out.stderr.as_str(), out.code),
            ("5 1\n2 3\n6 4\n", "", 0),
            "{text}"
        );
    }

    fn convert(from: NotationArg, to: NotationArg, fen: Option<&str>, text: &str) -> ToolOutcome {
        let args = ConvertArgs {
            game: RulesGameArg::Xiangqi,
            from,
            to,
            fen: fen.map(str::to_string),
            script: ScriptArg::Simplified,
            file: "unused".into(),
        };
        convert_text(&args, text)
    }

    #[test]
    fn perft_prints_just_the_leaf_count() {
        let args = PerftArgs {
            game: RulesGameArg::Xiangqi,
            fen: "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1".into(),
            depth: 2,
        };
        let out = perft(&args);
        assert_eq!((out.stdout.as_str(), out.code), ("1920\n", 0));
        let bad = perft(&PerftArgs {
            fen: "nonsense w".into(),
            ..args
        });
        assert_eq!(bad.code, 2);
        assert!(bad.stderr.starts_with("FEN: "), "{}", bad.stderr);
    }

    #[test]
    fn record_convert_prints_one_move_per_line_and_stops_at_a_bad_ply() {
        let out = convert(
            NotationArg::Iccs,
            NotationArg::Chinese,
            None,
            "1. h2e2 h9g7 2. h0g2",
        );
        assert_eq!(
            (out.stdout.as_str(), out.code),
            ("炮二平五\n马8进7\n马二进三\n", 0)
        );
        let out = convert(
            NotationArg::Chinese,
            NotationArg::Wxf,
            Some("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b"),
            "炮8平5 炮二平五 炮5进9",
        );
        assert_eq!(out.stdout, "C8.5\nC2.5\n");
        assert_eq!(
            (out.stderr.as_str(), out.code),
            ("ply 3: no legal move fits \"炮5进9\"\n", 2)
        );
    }

    #[test]
    fn record_convert_reads_and_writes_numbered_soldier_stacks() {
        // Issue #39: three or more soldiers on a file are named by their place from the front
        // and the file (`25=6`, `13=4`). Xiangqi: a stack of 3 on file 7 grows to 5.
        let fen = "4k3n/1P7/2PP5/2P6/2P6/9/9/9/9/3K5 w";
        let wxf = "17+1 H9+8 P6.7 H8-9 17+1 H9+8 P8.7 H8-9 57.8 H9+8 37.6 H8-9 27.8";
        let iccs = "c7c8 i9h7 d7c7 h7i9 c8c9 i9h7 b8c8 h7i9 c5b5 i9h7 c7d7 h7i9 c8b8";
        let lines = |s: &str| s.split(' ').map(|m| format!("{m}\n")).collect::<String>();
        let out = convert(NotationArg::Wxf, NotationArg::Iccs, Some(fen), wxf);
        assert_eq!((out.stdout, out.code), (lines(iccs), 0), "{}", out.stderr);
        let out = convert(NotationArg::Iccs, NotationArg::Wxf, Some(fen), iccs);
        assert_eq!((out.stdout, out.code), (lines(wxf), 0), "{}", out.stderr);
        let zh = convert(NotationArg::Iccs, NotationArg::Chinese, Some(fen), iccs);
        let back = convert(
            NotationArg::Chinese,
            NotationArg::Wxf,
            Some(fen),
            &zh.stdout,
        );
        assert_eq!((back.stdout, back.code), (lines(wxf), 0), "{}", back.stderr);
        let out = convert(NotationArg::Wxf, NotationArg::Iccs, Some(fen), "17=8 H9=8");
        assert_eq!(out.code, 2);
        assert_eq!(out.stdout, "c7b7\n");
        // Jieqi: a face-down piece on c3 moves as a soldier and counts in the stack.
        let args = ConvertArgs {
            game: RulesGameArg::Jieqi,
            from: NotationArg::Wxf,
            to: NotationArg::Chinese,
            fen: Some("4k3n/1P7/2PP5/2P6/2P6/9/2X6/9/9/3K5 w".into()),
            script: ScriptArg::Traditional,
            file: "unused".into(),
        };
        let out = convert_text(&args, "17+1 H9+8 P6.7 H8-9 47.8 H9+8 47+1R");
        assert_eq!(
            (out.stdout.as_str(), out.code),
            (
                "前兵進一\n馬9進8\n兵六平七\n馬8退9\n四兵平八\n馬9進8\n四兵七進一車\n",
                0
            ),
            "{}",
            out.stderr
        );
    }
}
