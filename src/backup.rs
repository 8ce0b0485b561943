//! Whole-database backup and restore (issue #17) with `pg_dump`/`pg_restore` of the same
//! PostgreSQL installation as the embedded cluster: a consistent snapshot in PostgreSQL's
//! custom format, written to a temporary name and renamed, so a file that exists is whole.
//! In embedded mode the server also keeps the last backups in `<data-dir>/backups`, made
//! whenever a round is paired or completed.

use crate::config::ServerArgs;
use crate::embedded_pg::{self, EmbeddedPg, PgBinaries, DB_NAME, DB_USER};
use anyhow::{bail, Context as _};
use sqlx::PgPool;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// Where `pg_dump`/`pg_restore` connect.
enum Target {
    /// `DATABASE_URL`.
    Url(String),
    /// The embedded cluster's socket with its password.
    Socket { dir: PathBuf, password: String },
}

impl Target {
    fn apply(&self, cmd: &mut Command) {
        match self {
            Target::Url(url) => {
                cmd.arg(format!("--dbname={url}"));
            }
            Target::Socket { dir, password } => {
                cmd.arg(format!(
                    "--dbname=host={} port=5432 user={DB_USER} dbname={DB_NAME}",
                    dir.display()
                ))
                .env("PGPASSWORD", password);
            }
        }
    }
}

fn run(mut cmd: Command, tool: &str) -> anyhow::Result<()> {
    let output = cmd
        .output()
        .with_context(|| format!("cannot run {}", cmd.get_program().to_string_lossy()))?;
    if !output.status.success() {
        bail!(
            "{tool} failed ({}): {}",
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    Ok(())
}

/// Dumps the database at `target` into `file` (custom format), atomically and privately.
fn dump(bins: &PgBinaries, target: &Target, file: &Path) -> anyhow::Result<()> {
    let mut cmd = Command::new(bins.tool("pg_dump"));
    cmd.args(["--format=custom", "--no-owner", "--no-privileges"]);
    target.apply(&mut cmd);
    write_privately(cmd, "pg_dump", file)
}

/// Runs `cmd` with its standard output into `file`: first into `<file>.partial`, created
/// with mode 0600 before anything is written (a backup holds every password hash and all
/// contact data: no other local account may read it, not even for a moment), then renamed.
fn write_privately(mut cmd: Command, tool: &str, file: &Path) -> anyhow::Result<()> {
    use std::os::unix::fs::OpenOptionsExt as _;
    let partial = file.with_extension("partial");
    // A left-over of an interrupted backup may have another owner's mode: start afresh.
    let _ = std::fs::remove_file(&partial);
    let out = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&partial)
        .with_context(|| format!("cannot create {}", partial.display()))?;
    cmd.stdout(out.try_clone()?);
    if let Err(e) = run(cmd, tool) {
        let _ = std::fs::remove_file(&partial);
        return Err(e);
    }
    out.sync_all()?;
    std::fs::rename(&partial, file).with_context(|| format!("cannot write {}", file.display()))?;
    Ok(())
}

/// Creates `folder` (mode 0700) or makes an existing one 0700, and makes the automatic
/// backups already in it 0600 (older versions left them readable by every local account).
fn private_folder(folder: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::{DirBuilderExt as _, PermissionsExt as _};
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(folder)?;
    std::fs::set_permissions(folder, std::fs::Permissions::from_mode(0o700))?;
    for entry in std::fs::read_dir(folder)?.flatten() {
        let path = entry.path();
        if path
            .extension()
            .is_some_and(|e| e == "dump" || e == "partial")
        {
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600))?;
        }
    }
    Ok(())
}

/// Where a running server's database is, for a backup downloaded from the dashboard.
#[derive(Debug, Clone)]
pub struct Source {
    /// `DATABASE_URL`, when the server uses one.
    pub database_url: Option<String>,
    /// The data folder of the embedded cluster otherwise.
    pub data_dir: PathBuf,
}

/// `pg_dump` of the whole database in its custom format (the same as `arbiter backup FILE`)
/// to standard output, for a download: the caller spawns it and streams its output.
pub fn dump_to_stdout(source: &Source) -> anyhow::Result<Command> {
    let bins = PgBinaries::find()?;
    let target = match &source.database_url {
        Some(url) => Target::Url(url.clone()),
        None => Target::Socket {
            dir: EmbeddedPg::running_server_socket(&source.data_dir)
                .context("the embedded cluster is not running")?,
            password: embedded_pg::read_secret(&source.data_dir)?,
        },
    };
    let mut cmd = Command::new(bins.tool("pg_dump"));
    cmd.args(["--format=custom", "--no-owner", "--no-privileges"]);
    target.apply(&mut cmd);
    Ok(cmd)
}

/// `arbiter backup FILE`: a consistent snapshot of the whole database — beside a running
/// server (its embedded cluster), with the cluster started for the command, or of
/// `DATABASE_URL`.
pub async fn backup(args: &ServerArgs, file: &Path) -> anyhow::Result<()> {
    let bins = PgBinaries::find()?;
    let (target, _cluster) = match &args.database_url {
        Some(url) => (Target::Url(url.clone()), None),
        None => match EmbeddedPg::running_server_socket(&args.data_dir) {
            Some(dir) => (
                Target::Socket {
                    dir,
                    password: embedded_pg::read_secret(&args.data_dir)?,
                },
                None,
            ),
            None => {
                let data_dir = args.data_dir.clone();
                let pg = tokio::task::spawn_blocking(move || EmbeddedPg::start(&data_dir))
                    .await
                    .context("embedded PostgreSQL start-up panicked")??;
                let target = Target::Socket {
                    dir: pg.socket_dir().to_path_buf(),
                    password: pg.secret().to_string(),
                };
                (target, Some(pg))
            }
        },
    };
    let file = file.to_path_buf();
    tokio::task::spawn_blocking(move || dump(&bins, &target, &file))
        .await
        .context("pg_dump panicked")??;
    Ok(())
}

/// `arbiter restore FILE`: replaces the whole database by a backup, in one transaction
/// (nothing changes when it fails). Refused beside a running server: stop it first.
pub async fn restore(args: &ServerArgs, file: &Path) -> anyhow::Result<()> {
    if !file.is_file() {
        bail!("{} is not a file", file.display());
    }
    let bins = PgBinaries::find()?;
    let (target, _cluster) = match &args.database_url {
        Some(url) => (Target::Url(url.clone()), None),
        None => {
            if EmbeddedPg::running_server_socket(&args.data_dir).is_some() {
                bail!(
                    "a server is running on {}: stop it before restoring",
                    args.data_dir.display()
                );
            }
            let data_dir = args.data_dir.clone();
            let pg = tokio::task::spawn_blocking(move || EmbeddedPg::start(&data_dir))
                .await
                .context("embedded PostgreSQL start-up panicked")??;
            crate::startup::ensure_database(pg.maintenance_options()).await?;
            let target = Target::Socket {
                dir: pg.socket_dir().to_path_buf(),
                password: pg.secret().to_string(),
            };
            (target, Some(pg))
        }
    };
    let file = file.to_path_buf();
    tokio::task::spawn_blocking(move || {
        let mut cmd = Command::new(bins.tool("pg_restore"));
        cmd.args([
            "--clean",
            "--if-exists",
            "--no-owner",
            "--no-privileges",
            "--single-transaction",
            "--exit-on-error",
        ]);
        target.apply(&mut cmd);
        cmd.arg(&file);
        run(cmd, "pg_restore")
    })
    .await
    .context("pg_restore panicked")??;
    Ok(())
}

/// How many automatic backups the data folder keeps.
pub const KEEP: usize = 10;

/// The state whose change calls for a backup: rounds paired, rounds completed.
async fn round_marks(pool: &PgPool) -> sqlx::Result<(i64, i64)> {
    sqlx::query_as::<_, (i64, i64)>(
        "select count(*), count(*) filter (where status = 'completed') from round",
    )
    .fetch_one(pool)
    .await
}

/// Watches the rounds every few seconds and, when one was paired or completed since the last
/// look, dumps the embedded database into `<data-dir>/backups/auto-…​.dump`, keeping the last
/// [`KEEP`]. Failures are logged and tried again at the next change.
pub async fn auto_backups(pool: PgPool, data_dir: PathBuf, socket_dir: PathBuf, password: String) {
    let folder = data_dir.join("backups");
    let mut last = round_marks(&pool).await.ok();
    let mut ticks = tokio::time::interval(Duration::from_secs(5));
    loop {
        ticks.tick().await;
        let Ok(now) = round_marks(&pool).await else {
            continue;
        };
        if last == Some(now) {
            continue;
        }
        let (folder, dir, password) = (folder.clone(), socket_dir.clone(), password.clone());
        let made = tokio::task::spawn_blocking(move || -> anyhow::Result<PathBuf> {
            private_folder(&folder)?;
            let name = format!(
                "auto-{}.dump",
                chrono::Utc::now().format("%Y%m%dT%H%M%S%.3fZ")
            );
            let file = folder.join(name);
            dump(
                &PgBinaries::find()?,
                &Target::Socket { dir, password },
                &file,
            )?;
            prune(&folder, KEEP)?;
            Ok(file)
        })
        .await;
        match made {
            Ok(Ok(file)) => {
                tracing::info!(file = %file.display(), "automatic backup written");
                last = Some(now);
            }
            Ok(Err(error)) => {
                tracing::error!(error = format!("{error:#}"), "automatic backup failed")
            }
            Err(error) => tracing::error!(%error, "automatic backup panicked"),
        }
    }
}

/// Deletes all but the newest `keep` automatic backups (their names sort by time).
fn prune(folder: &Path, keep: usize) -> std::io::Result<()> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(folder)?
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("auto-") && n.ends_with(".dump"))
        })
        .collect();
    files.sort();
    let excess = files.len().saturating_sub(keep);
    for old in &files[..excess] {
        std::fs::remove_file(old)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt as _;

    fn mode(path: &Path) -> u32 {
        std::fs::metadata(path).unwrap().permissions().mode() & 0o777
    }

    #[test]
    fn a_backup_is_private_from_its_first_byte() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("event.dump");
        // The "dump" writes the mode of the file it is writing into (its standard output).
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "stat -L -c %a /proc/self/fd/1"]);
        write_privately(cmd, "stat", &file).unwrap();
        assert_eq!(std::fs::read_to_string(&file).unwrap().trim(), "600");
        assert_eq!(mode(&file), 0o600);
        assert!(!file.with_extension("partial").exists());
        // A failed dump leaves neither file.
        let failed = dir.path().join("failed.dump");
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "exit 3"]);
        assert!(write_privately(cmd, "sh", &failed).is_err());
        assert!(!failed.exists() && !failed.with_extension("partial").exists());
    }

    #[test]
    fn the_backups_folder_is_private_and_so_are_older_dumps_in_it() {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("backups");
        private_folder(&folder).unwrap();
        assert_eq!(mode(&folder), 0o700);
        std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o755)).unwrap();
        let old = folder.join("auto-20261201T000000.000Z.dump");
        std::fs::write(&old, b"x").unwrap();
        std::fs::set_permissions(&old, std::fs::Permissions::from_mode(0o644)).unwrap();
        private_folder(&folder).unwrap();
        assert_eq!(mode(&folder), 0o700);
        assert_eq!(mode(&old), 0o600);
    }

    #[test]
    fn pruning_keeps_the_newest_automatic_backups_only() {
        let dir = tempfile::tempdir().unwrap();
        for i in 0..13 {
            std::fs::write(dir.path().join(format!("auto-2026120{i:02}.dump")), b"x").unwrap();
        }
        std::fs::write(dir.path().join("mine.dump"), b"x").unwrap();
        prune(dir.path(), 10).unwrap();
        let mut left: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left.len(), 11);
        assert_eq!(left[0], "auto-202612003.dump");
        assert!(left.contains(&"mine.dump".to_string()));
    }
}
