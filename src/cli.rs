//! Subcommands other than `serve`: administration and the test harness's throwaway database.

use crate::config::ServerArgs;
use crate::embedded_pg::{self, EmbeddedPg};
use crate::service;
use crate::startup::{self, Database};
use anyhow::Context as _;
use std::io::BufRead as _;

/// `arbiter admin create NAME`: reads the password from the first line of standard input.
///
/// On the embedded database this uses the running server's cluster if there is one, and
/// otherwise starts the cluster itself and stops it afterwards.
pub async fn create_admin(args: &ServerArgs, name: &str) -> anyhow::Result<()> {
    let mut password = String::new();
    std::io::stdin()
        .lock()
        .read_line(&mut password)
        .context("reading the password from standard input")?;
    let password = password.trim_end_matches(['\r', '\n']);
    let database = match (
        &args.database_url,
        EmbeddedPg::running_server_socket(&args.data_dir),
    ) {
        (None, Some(socket_dir)) => {
            let pool = startup::connect(embedded_pg::socket_options(
                &socket_dir,
                embedded_pg::DB_NAME,
            ))
            .await?;
            startup::MIGRATOR.run(&pool).await?;
            Database {
                pool,
                embedded: None,
            }
        }
        _ => Database::open(args).await?,
    };
    let result = service::users::create_user(&database.pool, name, password, "admin").await;
    database.pool.close().await;
    drop(database);
    match result {
        Ok(id) => {
            println!("created admin {name} ({id})");
            Ok(())
        }
        Err(service::Error::Invalid { message, .. }) => anyhow::bail!("{message}"),
        Err(err) => Err(err.into()),
    }
}

/// `arbiter with-db -- COMMAND…`: runs COMMAND with `DATABASE_URL` set to a throwaway cluster
/// in a temporary folder, which is stopped and deleted afterwards whatever COMMAND does.
/// Returns COMMAND's exit code.
pub fn with_throwaway_db(command: &[String]) -> anyhow::Result<i32> {
    let (program, rest) = command.split_first().context("no command given")?;
    let folder = std::env::temp_dir().join(format!("arbiter-test-db-{}", std::process::id()));
    let pg = EmbeddedPg::start_unlocked(&folder)?;
    let url = format!(
        "postgres://{}@localhost/postgres?host={}",
        embedded_pg::DB_USER,
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
