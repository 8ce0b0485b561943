//! A private PostgreSQL cluster started from the system's binaries when no `DATABASE_URL` is
//! given (SPEC §14): initialised in `<data-dir>/pg`, listening only on a Unix socket inside the
//! data folder (no TCP port, so it never collides with another PostgreSQL), and stopped with the
//! server.
//!
//! PostgreSQL refuses to run as root; when we are root (containers, these machines) the cluster
//! runs as an unprivileged system user (`postgres`, else `nobody`) who owns the cluster folders.
//!
//! The cluster is private: its socket folder `run/` belongs to the cluster's user with mode
//! 0700 (socket 0700), and every connection needs the password (scram-sha-256) kept in
//! `<data-dir>/pg-secret` (mode 0600, readable by the server's user only). No folder above the
//! data folder is changed: when the cluster's user cannot reach the data folder, start-up
//! fails and says so.

use nix::unistd::{Gid, Uid, User};
use sqlx::postgres::PgConnectOptions;
use std::fs::{self, File};
use std::io::Write as _;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The role and database the embedded cluster serves.
pub const DB_USER: &str = "arbiter";
/// Name of the application database inside the embedded cluster.
pub const DB_NAME: &str = "arbiter";

/// Why the embedded cluster could not be used.
#[derive(Debug, thiserror::Error)]
pub enum EmbeddedPgError {
    /// Occurs when no `initdb`/`pg_ctl`/`postgres` can be found.
    #[error(
        "no PostgreSQL server binaries found (looked at ARBITER_PG_BIN, PATH and \
         /usr/lib/postgresql/*/bin). Install PostgreSQL (e.g. `apt-get install postgresql`) \
         or set DATABASE_URL to use an existing server"
    )]
    NoBinaries,
    /// Occurs when another `arbiter` process already uses this data folder.
    #[error("another arbiter server is already running with data folder {0} (lock file {0}/arbiter.lock is held); stop it first or use another --data-dir")]
    AlreadyRunning(String),
    /// Occurs when a PostgreSQL tool exits with an error.
    #[error("{tool} failed ({status}): {output}")]
    Tool {
        /// Which program.
        tool: String,
        /// Its exit status.
        status: String,
        /// What it printed (and the server log tail, for start failures).
        output: String,
    },
    /// Occurs on a file-system error in the data folder.
    #[error("{context}: {source}")]
    Io {
        /// What we were doing.
        context: String,
        /// The error.
        #[source]
        source: std::io::Error,
    },
    /// Occurs when the account PostgreSQL runs as cannot reach the data folder.
    #[error(
        "PostgreSQL runs as an unprivileged user (we are root), who cannot enter {0}; choose a \
         data folder that user can reach (e.g. /var/lib/arbiter) — arbiter does not widen \
         folders above its data folder"
    )]
    Unreachable(String),
    /// Occurs when we are root and no unprivileged user exists to run PostgreSQL.
    #[error(
        "running as root, but neither a `postgres` nor a `nobody` user exists to run PostgreSQL as"
    )]
    NoUnprivilegedUser,
}

fn io_err(context: impl Into<String>) -> impl FnOnce(std::io::Error) -> EmbeddedPgError {
    let context = context.into();
    move |source| EmbeddedPgError::Io { context, source }
}

/// The PostgreSQL server binaries we found.
#[derive(Debug, Clone)]
pub struct PgBinaries {
    dir: PathBuf,
}

impl PgBinaries {
    /// Finds `initdb`, `pg_ctl` and `postgres`: `ARBITER_PG_BIN`, then `PATH`, then
    /// `/usr/lib/postgresql/*/bin` (newest version first).
    pub fn find() -> Result<PgBinaries, EmbeddedPgError> {
        let has_all = |dir: &Path| {
            ["initdb", "pg_ctl", "postgres"]
                .iter()
                .all(|b| dir.join(b).is_file())
        };
        if let Some(dir) = std::env::var_os("ARBITER_PG_BIN") {
            let dir = PathBuf::from(dir);
            return if has_all(&dir) {
                Ok(PgBinaries { dir })
            } else {
                Err(EmbeddedPgError::NoBinaries)
            };
        }
        if let Some(path) = std::env::var_os("PATH") {
            for dir in std::env::split_paths(&path) {
                if has_all(&dir) {
                    return Ok(PgBinaries { dir });
                }
            }
        }
        let mut versions: Vec<(u32, PathBuf)> = fs::read_dir("/usr/lib/postgresql")
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|entry| {
                let version = entry
                    .file_name()
                    .to_str()?
                    .split('.')
                    .next()?
                    .parse()
                    .ok()?;
                let bin = entry.path().join("bin");
                has_all(&bin).then_some((version, bin))
            })
            .collect();
        versions.sort();
        versions
            .pop()
            .map(|(_, dir)| PgBinaries { dir })
            .ok_or(EmbeddedPgError::NoBinaries)
    }

    /// The path of one of the tools (`pg_dump`, `pg_restore`…) beside the server binaries.
    pub fn tool(&self, name: &str) -> PathBuf {
        let here = self.dir.join(name);
        if here.is_file() {
            return here;
        }
        // `PATH` may hold links to the server binaries only (`/usr/local/bin/postgres`); the
        // client tools are beside what they point at.
        fs::canonicalize(self.dir.join("postgres"))
            .ok()
            .and_then(|real| real.parent().map(|dir| dir.join(name)))
            .filter(|tool| tool.is_file())
            .unwrap_or(here)
    }
}

/// The account PostgreSQL runs as: ourselves, or an unprivileged user when we are root.
#[derive(Debug, Clone, Copy)]
struct RunAs {
    ids: Option<(Uid, Gid)>,
}

impl RunAs {
    fn detect() -> Result<RunAs, EmbeddedPgError> {
        if !Uid::effective().is_root() {
            return Ok(RunAs { ids: None });
        }
        for name in ["postgres", "nobody"] {
            if let Ok(Some(user)) = User::from_name(name) {
                return Ok(RunAs {
                    ids: Some((user.uid, user.gid)),
                });
            }
        }
        Err(EmbeddedPgError::NoUnprivilegedUser)
    }

    fn command(&self, program: &Path, cwd: &Path) -> Command {
        let mut cmd = Command::new(program);
        cmd.current_dir(cwd).env("LC_ALL", "C").env_remove("PGDATA");
        if let Some((uid, gid)) = self.ids {
            cmd.uid(uid.as_raw()).gid(gid.as_raw());
        }
        cmd
    }

    /// Gives a folder we created to the PostgreSQL account.
    fn own(&self, path: &Path) -> Result<(), EmbeddedPgError> {
        if let Some((uid, gid)) = self.ids {
            nix::unistd::chown(path, Some(uid), Some(gid)).map_err(|e| EmbeddedPgError::Io {
                context: format!("chown {}", path.display()),
                source: e.into(),
            })?;
        }
        Ok(())
    }

    /// The PostgreSQL account must be able to reach the data folder. We never widen a folder
    /// above it (that would open other people's files): when one lacks search permission for
    /// the account, start-up stops with a message naming it.
    fn ensure_traversable(&self, path: &Path) -> Result<(), EmbeddedPgError> {
        for dir in path.ancestors() {
            if dir.as_os_str().is_empty() {
                continue;
            }
            let meta = fs::metadata(dir).map_err(io_err(format!("stat {}", dir.display())))?;
            if !self.may_enter(&meta) {
                return Err(EmbeddedPgError::Unreachable(dir.display().to_string()));
            }
        }
        Ok(())
    }

    /// Whether the PostgreSQL account may search (enter) a folder.
    fn may_enter(&self, meta: &fs::Metadata) -> bool {
        use std::os::unix::fs::MetadataExt as _;
        let Some((uid, gid)) = self.ids else {
            return true;
        };
        let mode = meta.permissions().mode();
        if meta.uid() == uid.as_raw() {
            mode & 0o100 != 0
        } else if meta.gid() == gid.as_raw() {
            mode & 0o010 != 0
        } else {
            mode & 0o001 != 0
        }
    }

    /// The first existing folder on the way to `path` (absolute; folders not made yet are
    /// skipped: arbiter makes them reachable) that the PostgreSQL account may not enter.
    fn first_out_of_reach(&self, path: &Path) -> Option<PathBuf> {
        let mut ways: Vec<&Path> = path
            .ancestors()
            .filter(|d| !d.as_os_str().is_empty())
            .collect();
        ways.reverse();
        ways.into_iter().find_map(|dir| match fs::metadata(dir) {
            Ok(meta) if !self.may_enter(&meta) => Some(dir.to_path_buf()),
            _ => None,
        })
    }
}

/// The data folder a server running as root uses when the default `./arbiter-data` is out of
/// the PostgreSQL account's reach (issue #38).
pub const SYSTEM_DATA_DIR: &str = "/var/lib/arbiter";
/// Names another folder than [`SYSTEM_DATA_DIR`] for that case (the tests use it, so that they
/// leave the machine's `/var/lib/arbiter` alone).
pub const SYSTEM_DATA_DIR_ENV: &str = "ARBITER_SYSTEM_DATA_DIR";

/// [`SYSTEM_DATA_DIR`], unless [`SYSTEM_DATA_DIR_ENV`]'s value (`env`) names another.
fn system_data_dir(env: Option<std::ffi::OsString>) -> PathBuf {
    env.filter(|v| !v.is_empty())
        .map_or_else(|| PathBuf::from(SYSTEM_DATA_DIR), PathBuf::from)
}

/// The data folder used when none was given (no `--data-dir`, no `ARBITER_DATA_DIR`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DefaultDataDir {
    /// The folder.
    pub path: PathBuf,
    /// When it is not the default: the folder on the way to the default that the PostgreSQL
    /// account may not enter, and that account's name.
    pub moved: Option<(PathBuf, String)>,
}

/// Chooses the data folder when none was given. A user other than root keeps `default`
/// (`./arbiter-data`), and so does root when PostgreSQL's unprivileged account can reach it
/// or when a cluster already lives there (its data is never left behind; start-up then says
/// which folder is in the way). Otherwise root uses [`SYSTEM_DATA_DIR`] (or the folder of
/// [`SYSTEM_DATA_DIR_ENV`]), made on first use with mode 0700 and given to that account. No
/// folder is widened. Every command asks this in the same way, so `arbiter admin create`
/// without flags finds the folder `arbiter` without flags uses.
pub fn default_data_dir(default: &Path) -> Result<DefaultDataDir, EmbeddedPgError> {
    let keep = || DefaultDataDir {
        path: default.to_path_buf(),
        moved: None,
    };
    let run_as = RunAs::detect()?;
    let Some((uid, _)) = run_as.ids else {
        return Ok(keep());
    };
    if default.join("pg").join("PG_VERSION").is_file() {
        return Ok(keep());
    }
    let absolute: PathBuf = std::env::current_dir()
        .map_err(io_err("read the current folder"))?
        .join(default)
        .components()
        .filter(|c| !matches!(c, std::path::Component::CurDir))
        .collect();
    let Some(blocked) = run_as.first_out_of_reach(&absolute) else {
        return Ok(keep());
    };
    let path = system_data_dir(std::env::var_os(SYSTEM_DATA_DIR_ENV));
    if !path.exists() {
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).map_err(io_err(format!("create {}", parent.display())))?;
        }
        use std::os::unix::fs::DirBuilderExt as _;
        fs::DirBuilder::new()
            .mode(0o700)
            .create(&path)
            .map_err(io_err(format!("create data folder {}", path.display())))?;
        // The umask may have narrowed it further; 0700 exactly, then the cluster's account.
        fs::set_permissions(&path, fs::Permissions::from_mode(0o700))
            .map_err(io_err(format!("chmod 0700 {}", path.display())))?;
        run_as.own(&path)?;
    }
    let account = User::from_uid(uid)
        .ok()
        .flatten()
        .map_or_else(|| uid.to_string(), |u| u.name);
    Ok(DefaultDataDir {
        path,
        moved: Some((blocked, account)),
    })
}

/// A running embedded cluster. Dropping it stops PostgreSQL (fast shutdown) and releases the
/// data-folder lock.
#[derive(Debug)]
pub struct EmbeddedPg {
    bins: PgBinaries,
    run_as: RunAs,
    data_dir: PathBuf,
    pg_dir: PathBuf,
    socket_dir: PathBuf,
    secret: String,
    running: bool,
    // Held for our lifetime: a second server on the same folder fails at once.
    _lock: Option<File>,
}

impl EmbeddedPg {
    /// Starts (initialising on first use) the cluster of `data_dir`, taking the data-folder
    /// lock so that no second server runs on it.
    pub fn start(data_dir: &Path) -> Result<EmbeddedPg, EmbeddedPgError> {
        let data_dir = prepare_data_dir(data_dir)?;
        let lock = lock_data_dir(&data_dir)?;
        let mut pg = EmbeddedPg::open(&data_dir, Some(lock))?;
        pg.init_and_start()?;
        Ok(pg)
    }

    /// Starts a cluster for a caller that does not hold the data-folder lock semantics of a
    /// server (the test harness's throwaway cluster).
    pub fn start_unlocked(data_dir: &Path) -> Result<EmbeddedPg, EmbeddedPgError> {
        let data_dir = prepare_data_dir(data_dir)?;
        let mut pg = EmbeddedPg::open(&data_dir, None)?;
        pg.init_and_start()?;
        Ok(pg)
    }

    /// If a server already holds `data_dir`, the socket folder to reach its cluster.
    pub fn running_server_socket(data_dir: &Path) -> Option<PathBuf> {
        let data_dir = fs::canonicalize(data_dir).ok()?;
        match lock_data_dir(&data_dir) {
            Err(EmbeddedPgError::AlreadyRunning(_)) => Some(data_dir.join("run")),
            _ => None,
        }
    }

    fn open(data_dir: &Path, lock: Option<File>) -> Result<EmbeddedPg, EmbeddedPgError> {
        let bins = PgBinaries::find()?;
        let run_as = RunAs::detect()?;
        Ok(EmbeddedPg {
            bins,
            run_as,
            data_dir: data_dir.to_path_buf(),
            pg_dir: data_dir.join("pg"),
            socket_dir: data_dir.join("run"),
            secret: String::new(),
            running: false,
            _lock: lock,
        })
    }

    fn init_and_start(&mut self) -> Result<(), EmbeddedPgError> {
        self.run_as.ensure_traversable(&self.data_dir)?;
        for dir in [&self.socket_dir, &self.data_dir.join("log")] {
            fs::create_dir_all(dir).map_err(io_err(format!("create {}", dir.display())))?;
            self.run_as.own(dir)?;
            // The socket folder and the logs are the cluster's alone.
            fs::set_permissions(dir, fs::Permissions::from_mode(0o700))
                .map_err(io_err(format!("chmod 0700 {}", dir.display())))?;
        }
        let (secret, fresh) = load_or_make_secret(&self.data_dir)?;
        self.secret = secret;
        if !self.pg_dir.join("PG_VERSION").is_file() {
            self.initdb()?;
        } else {
            self.stop_leftover_postmaster()?;
            if fresh {
                // A cluster made before it had a password (trust): give the role one now.
                self.set_password_single_user()?;
            }
        }
        self.write_hba()?;
        self.stop_leftover_postmaster()?;
        self.pg_ctl_start()?;
        self.running = true;
        Ok(())
    }

    fn initdb(&self) -> Result<(), EmbeddedPgError> {
        // A folder without PG_VERSION is a failed earlier initdb: it holds no data.
        if self.pg_dir.exists() {
            fs::remove_dir_all(&self.pg_dir).map_err(io_err(format!(
                "remove incomplete {}",
                self.pg_dir.display()
            )))?;
        }
        fs::create_dir_all(&self.pg_dir)
            .map_err(io_err(format!("create {}", self.pg_dir.display())))?;
        fs::set_permissions(&self.pg_dir, fs::Permissions::from_mode(0o700))
            .map_err(io_err(format!("chmod {}", self.pg_dir.display())))?;
        self.run_as.own(&self.pg_dir)?;
        tracing::info!(dir = %self.pg_dir.display(), "initialising embedded PostgreSQL cluster");
        // initdb reads the password from a file only the cluster's user can read, removed at
        // once.
        let pwfile = self.socket_dir.join("initdb-password");
        write_private(&pwfile, &self.secret)?;
        self.run_as.own(&pwfile)?;
        let mut cmd = self
            .run_as
            .command(&self.bins.tool("initdb"), &self.data_dir);
        cmd.arg("-D")
            .arg(&self.pg_dir)
            .args([
                "-U",
                DB_USER,
                "-E",
                "UTF8",
                "--no-locale",
                "--auth-local=scram-sha-256",
                "--auth-host=reject",
            ])
            .arg(format!("--pwfile={}", pwfile.display()));
        let result = run(cmd, "initdb");
        let _ = fs::remove_file(&pwfile);
        result
    }

    /// Sets the role's password with the server stopped (single-user mode), for clusters made
    /// before passwords.
    fn set_password_single_user(&self) -> Result<(), EmbeddedPgError> {
        tracing::warn!("giving the embedded PostgreSQL a password (it trusted local users)");
        let mut cmd = self
            .run_as
            .command(&self.bins.tool("postgres"), &self.data_dir);
        cmd.arg("--single")
            .arg("-D")
            .arg(&self.pg_dir)
            .arg("postgres");
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(io_err("run postgres --single"))?;
        if let Some(mut stdin) = child.stdin.take() {
            // The secret is hex, so it needs no quoting.
            writeln!(
                stdin,
                "set password_encryption = 'scram-sha-256'; alter role {DB_USER} password '{}';",
                self.secret
            )
            .map_err(io_err("write to postgres --single"))?;
        }
        let output = child
            .wait_with_output()
            .map_err(io_err("wait for postgres --single"))?;
        if !output.status.success() {
            return Err(EmbeddedPgError::Tool {
                tool: "postgres --single".into(),
                status: output.status.to_string(),
                output: String::from_utf8_lossy(&output.stderr).into_owned(),
            });
        }
        Ok(())
    }

    /// Local connections need the password; TCP is off anyway.
    fn write_hba(&self) -> Result<(), EmbeddedPgError> {
        let hba = self.pg_dir.join("pg_hba.conf");
        fs::write(
            &hba,
            "# Written by arbiter at every start: the password is required (pg-secret).\n\
             local all all scram-sha-256\n",
        )
        .map_err(io_err(format!("write {}", hba.display())))?;
        self.run_as.own(&hba)?;
        fs::set_permissions(&hba, fs::Permissions::from_mode(0o600))
            .map_err(io_err(format!("chmod {}", hba.display())))?;
        Ok(())
    }

    /// After a crash (kill -9 of the server) the previous postmaster may still run, or its
    /// `postmaster.pid` may be stale. Stop the former, delete the latter.
    fn stop_leftover_postmaster(&self) -> Result<(), EmbeddedPgError> {
        let pid_file = self.pg_dir.join("postmaster.pid");
        let Ok(text) = fs::read_to_string(&pid_file) else {
            return Ok(());
        };
        let pid: Option<i32> = text.lines().next().and_then(|l| l.trim().parse().ok());
        let alive_postgres = pid.is_some_and(|pid| {
            fs::read(format!("/proc/{pid}/cmdline"))
                .map(|cmdline| String::from_utf8_lossy(&cmdline).contains("postgres"))
                .unwrap_or(false)
        });
        if alive_postgres {
            tracing::warn!(
                pid,
                "stopping a PostgreSQL left running by an earlier arbiter"
            );
            let mut cmd = self
                .run_as
                .command(&self.bins.tool("pg_ctl"), &self.data_dir);
            cmd.arg("-D")
                .arg(&self.pg_dir)
                .args(["-m", "fast", "-w", "-t", "60", "stop"]);
            if run(cmd, "pg_ctl stop").is_err() {
                if let Some(pid) = pid {
                    let _ = nix::sys::signal::kill(
                        nix::unistd::Pid::from_raw(pid),
                        nix::sys::signal::Signal::SIGKILL,
                    );
                    std::thread::sleep(Duration::from_millis(500));
                }
            }
        }
        if pid_file.exists() {
            fs::remove_file(&pid_file)
                .map_err(io_err(format!("remove stale {}", pid_file.display())))?;
        }
        Ok(())
    }

    fn pg_ctl_start(&self) -> Result<(), EmbeddedPgError> {
        let log = self.data_dir.join("log").join("postgresql.log");
        let options = format!(
            "-c listen_addresses='' -c unix_socket_directories='{}' \
             -c unix_socket_permissions=0700 -c password_encryption=scram-sha-256 \
             -c max_connections=200",
            self.socket_dir.display()
        );
        let mut cmd = self
            .run_as
            .command(&self.bins.tool("pg_ctl"), &self.data_dir);
        cmd.arg("-D")
            .arg(&self.pg_dir)
            .arg("-l")
            .arg(&log)
            .args(["-w", "-t", "120", "-o", &options, "start"])
            // Its own process group: a Ctrl-C meant for the server must not reach PostgreSQL
            // before the server has shut down gracefully.
            .process_group(0);
        run(cmd, "pg_ctl start").map_err(|err| match err {
            EmbeddedPgError::Tool {
                tool,
                status,
                output,
            } => EmbeddedPgError::Tool {
                tool,
                status,
                output: format!("{output}\n--- {} ---\n{}", log.display(), tail(&log, 30)),
            },
            other => other,
        })?;
        self.wait_for_socket(Duration::from_secs(30));
        Ok(())
    }

    /// Whether the cluster's postmaster is running (its pid file names a live `postgres`).
    pub fn postmaster_alive(&self) -> bool {
        let Ok(text) = fs::read_to_string(self.pg_dir.join("postmaster.pid")) else {
            return false;
        };
        let Some(pid) = text
            .lines()
            .next()
            .and_then(|l| l.trim().parse::<i32>().ok())
        else {
            return false;
        };
        // A killed postmaster nobody has reaped yet is a zombie with an empty command line.
        fs::read(format!("/proc/{pid}/cmdline"))
            .map(|cmdline| String::from_utf8_lossy(&cmdline).contains("postgres"))
            .unwrap_or(false)
    }

    /// Starts the cluster again after its postmaster died: whatever it left (a stale pid
    /// file, a postmaster that hangs on) is cleared first.
    pub fn restart(&mut self) -> Result<(), EmbeddedPgError> {
        self.stop_leftover_postmaster()?;
        self.pg_ctl_start()?;
        self.running = true;
        Ok(())
    }

    fn wait_for_socket(&self, limit: Duration) {
        let socket = self.socket_dir.join(".s.PGSQL.5432");
        let started = Instant::now();
        while !socket.exists() && started.elapsed() < limit {
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Connection options for the application database.
    pub fn connect_options(&self) -> PgConnectOptions {
        socket_options(&self.socket_dir, DB_NAME).password(&self.secret)
    }

    /// Connection options for the maintenance database (to create the application database).
    pub fn maintenance_options(&self) -> PgConnectOptions {
        socket_options(&self.socket_dir, "postgres").password(&self.secret)
    }

    /// The password of the cluster's role.
    pub fn secret(&self) -> &str {
        &self.secret
    }

    /// The folder holding the Unix socket.
    pub fn socket_dir(&self) -> &Path {
        &self.socket_dir
    }

    /// Stops PostgreSQL (fast shutdown: open transactions roll back). Idempotent.
    pub fn stop(&mut self) {
        if !self.running {
            return;
        }
        self.running = false;
        let mut cmd = self
            .run_as
            .command(&self.bins.tool("pg_ctl"), &self.data_dir);
        cmd.arg("-D")
            .arg(&self.pg_dir)
            .args(["-m", "fast", "-w", "-t", "60", "stop"]);
        match run(cmd, "pg_ctl stop") {
            Ok(()) => tracing::info!("embedded PostgreSQL stopped"),
            Err(err) => tracing::error!(%err, "could not stop embedded PostgreSQL"),
        }
    }
}

impl Drop for EmbeddedPg {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Connection options for database `database` over the Unix socket in `socket_dir`.
pub fn socket_options(socket_dir: &Path, database: &str) -> PgConnectOptions {
    PgConnectOptions::new()
        .socket(socket_dir)
        .username(DB_USER)
        .database(database)
}

/// Where the cluster's password is kept.
fn secret_path(data_dir: &Path) -> PathBuf {
    data_dir.join("pg-secret")
}

/// The cluster's password, read from `<data-dir>/pg-secret` (the running server's, for
/// commands beside it).
pub fn read_secret(data_dir: &Path) -> Result<String, EmbeddedPgError> {
    let path = secret_path(data_dir);
    fs::read_to_string(&path)
        .map(|s| s.trim().to_string())
        .map_err(io_err(format!("read {}", path.display())))
}

/// Reads the password, or makes a random one (then `true`).
fn load_or_make_secret(data_dir: &Path) -> Result<(String, bool), EmbeddedPgError> {
    let path = secret_path(data_dir);
    if path.is_file() {
        return Ok((read_secret(data_dir)?, false));
    }
    let mut bytes = [0u8; 32];
    rand_core::RngCore::fill_bytes(&mut rand_core::OsRng, &mut bytes);
    let secret = hex::encode(bytes);
    write_private(&path, &secret)?;
    Ok((secret, true))
}

/// Writes a file only its owner can read (0600 from the start, never wider).
fn write_private(path: &Path, text: &str) -> Result<(), EmbeddedPgError> {
    use std::os::unix::fs::OpenOptionsExt as _;
    let _ = fs::remove_file(path);
    let mut file = fs::OpenOptions::new()
        .create_new(true)
        .write(true)
        .mode(0o600)
        .open(path)
        .map_err(io_err(format!("create {}", path.display())))?;
    file.write_all(text.as_bytes())
        .map_err(io_err(format!("write {}", path.display())))?;
    Ok(())
}

fn prepare_data_dir(data_dir: &Path) -> Result<PathBuf, EmbeddedPgError> {
    fs::create_dir_all(data_dir)
        .map_err(io_err(format!("create data folder {}", data_dir.display())))?;
    fs::canonicalize(data_dir).map_err(io_err(format!(
        "resolve data folder {}",
        data_dir.display()
    )))
}

fn lock_data_dir(data_dir: &Path) -> Result<File, EmbeddedPgError> {
    let path = data_dir.join("arbiter.lock");
    let mut file = fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(io_err(format!("open {}", path.display())))?;
    match file.try_lock() {
        Ok(()) => {
            let _ = file.set_len(0);
            let _ = writeln!(file, "{}", std::process::id());
            Ok(file)
        }
        Err(std::fs::TryLockError::WouldBlock) => Err(EmbeddedPgError::AlreadyRunning(
            data_dir.display().to_string(),
        )),
        Err(std::fs::TryLockError::Error(e)) => Err(EmbeddedPgError::Io {
            context: format!("lock {}", path.display()),
            source: e,
        }),
    }
}

fn run(mut cmd: Command, tool: &str) -> Result<(), EmbeddedPgError> {
    let output = cmd
        .stdin(Stdio::null())
        .output()
        .map_err(io_err(format!("run {tool}")))?;
    if output.status.success() {
        Ok(())
    } else {
        Err(EmbeddedPgError::Tool {
            tool: tool.to_string(),
            status: output.status.to_string(),
            output: format!(
                "{}{}",
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr)
            ),
        })
    }
}

fn tail(path: &Path, lines: usize) -> String {
    let text = fs::read_to_string(path).unwrap_or_default();
    let all: Vec<&str> = text.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roots_fallback_data_folder_is_var_lib_arbiter_unless_the_variable_names_another() {
        assert_eq!(system_data_dir(None), PathBuf::from("/var/lib/arbiter"));
        assert_eq!(
            system_data_dir(Some("".into())),
            PathBuf::from("/var/lib/arbiter")
        );
        assert_eq!(
            system_data_dir(Some("/srv/arbiter".into())),
            PathBuf::from("/srv/arbiter")
        );
    }

    #[test]
    fn a_private_folder_on_the_way_is_found_and_folders_not_made_yet_are_skipped() {
        use std::os::unix::fs::PermissionsExt as _;
        let tmp = tempfile::tempdir().expect("temp dir");
        let private = tmp.path().join("home");
        fs::create_dir(&private).expect("mkdir");
        fs::set_permissions(&private, fs::Permissions::from_mode(0o700)).expect("chmod");
        fs::set_permissions(tmp.path(), fs::Permissions::from_mode(0o711)).expect("chmod");
        // As an account that owns none of these folders (nobody).
        let other = RunAs {
            ids: Some((Uid::from_raw(65534), Gid::from_raw(65534))),
        };
        let data = private.join("arbiter-data");
        assert_eq!(other.first_out_of_reach(&data), Some(private.clone()));
        assert_eq!(
            other.first_out_of_reach(&tmp.path().join("not-yet/arbiter-data")),
            None
        );
        // Ourselves (not root): everything is reachable.
        assert_eq!(RunAs { ids: None }.first_out_of_reach(&data), None);
    }
}
