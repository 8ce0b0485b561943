//! The `arbiter` binary: parse the command line, set up logging, run the subcommand.

use arbiter::cli::ToolOutcome;
use arbiter::config::{
    AdminAction, BenchAction, Cli, Command, RecordAction, TrfAction, UserAction,
};
use arbiter::{backup, cli, startup};
use clap::parser::ValueSource;
use clap::{CommandFactory as _, FromArgMatches as _};
use tracing_subscriber::EnvFilter;

fn main() -> std::process::ExitCode {
    let matches = Cli::command().get_matches();
    let mut args = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    // No `--data-dir` and no `ARBITER_DATA_DIR`: the default, or a folder PostgreSQL's
    // account can reach when we are root (`embedded_pg::default_data_dir`).
    let default_data_dir = matches.value_source("data_dir") == Some(ValueSource::DefaultValue);
    tracing_subscriber::fmt()
        .with_env_filter(
            EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn")),
        )
        .with_writer(std::io::stderr)
        .init();
    let outcome = match args.command {
        Some(Command::WithDb { command }) => {
            return match cli::with_throwaway_db(&command) {
                Ok(code) => std::process::ExitCode::from(u8::try_from(code).unwrap_or(1)),
                Err(err) => {
                    eprintln!("error: {err:#}");
                    std::process::ExitCode::FAILURE
                }
            };
        }
        Some(Command::Trf {
            action: TrfAction::Normalize { file },
        }) => {
            return finish(cli::trf_normalize(&file));
        }
        Some(Command::Pair(ref pair)) => return finish(cli::pair(pair)),
        Some(Command::Standings(ref standings)) => return finish(cli::standings(standings)),
        Some(Command::Setup(ref setup)) => return finish(cli::setup(setup)),
        Some(Command::Perft(ref perft)) => return finish(cli::perft(perft)),
        Some(Command::Record {
            action: RecordAction::Convert(ref convert),
        }) => return finish(cli::record_convert(convert)),
        Some(Command::Bench {
            action: BenchAction::Pair(ref bench),
        }) => cli::bench_pair(bench),
        command => run_async(async move {
            if default_data_dir {
                startup::choose_data_dir(&mut args.server)?;
            }
            match command {
                None | Some(Command::Serve) => startup::serve(&args.server).await,
                Some(Command::Admin {
                    action: AdminAction::Create { name },
                }) => cli::create_admin(&args.server, &name).await,
                Some(Command::Backup { file }) => backup::backup(&args.server, &file).await,
                Some(Command::Restore { file }) => backup::restore(&args.server, &file).await,
                Some(Command::User { action }) => match action {
                    UserAction::Create { name, role } => {
                        cli::create_user(&args.server, &name, role.as_str()).await
                    }
                    UserAction::Passwd { name } => cli::set_password(&args.server, &name).await,
                    UserAction::List => cli::list_users(&args.server).await,
                },
                Some(_) => anyhow::bail!("this subcommand does not run a server"),
            }
        }),
    };
    match outcome {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err:#}");
            std::process::ExitCode::FAILURE
        }
    }
}

fn run_async(future: impl std::future::Future<Output = anyhow::Result<()>>) -> anyhow::Result<()> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?
        .block_on(future)
}

/// Prints a file tool's output and turns its code into the process exit code.
fn finish(outcome: ToolOutcome) -> std::process::ExitCode {
    use std::io::Write as _;
    let _ = std::io::stdout().write_all(outcome.stdout.as_bytes());
    let _ = std::io::stderr().write_all(outcome.stderr.as_bytes());
    std::process::ExitCode::from(outcome.code)
}
