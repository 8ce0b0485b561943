//! The `arbiter` binary: parse the command line, set up logging, run the subcommand.

use arbiter::config::{AdminAction, Cli, Command};
use arbiter::{cli, startup};
use clap::Parser;
use tracing_subscriber::EnvFilter;

fn main() -> std::process::ExitCode {
    let args = Cli::parse();
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
        command => run_async(async move {
            match command {
                None | Some(Command::Serve) => startup::serve(&args.server).await,
                Some(Command::Admin {
                    action: AdminAction::Create { name },
                }) => cli::create_admin(&args.server, &name).await,
                Some(Command::WithDb { .. }) => unreachable!("handled above"),
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
