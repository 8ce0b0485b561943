//! Building and running the application: database (embedded or external), migrations,
//! listener, graceful shutdown.

use crate::config::ServerArgs;
use crate::embedded_pg::{EmbeddedPg, DB_NAME};
use crate::http::{self, AppState};
use anyhow::Context as _;
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::{Connection, PgPool};
use std::future::Future;
use std::str::FromStr;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::net::TcpListener;

/// The migrations, embedded in the binary.
pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!();

/// A database the application can use, and the embedded cluster behind it if we started one
/// (dropping it stops PostgreSQL).
pub struct Database {
    /// The pool.
    pub pool: PgPool,
    /// The embedded cluster, when no URL was given.
    pub embedded: Option<EmbeddedPg>,
}

impl Database {
    /// Connects to `DATABASE_URL`, or starts the embedded cluster in the data folder; then
    /// runs the migrations.
    pub async fn open(args: &ServerArgs) -> anyhow::Result<Database> {
        let (options, embedded) = match &args.database_url {
            Some(url) => (
                PgConnectOptions::from_str(url)
                    .context("DATABASE_URL is not a valid PostgreSQL URL")?,
                None,
            ),
            None => {
                let data_dir = args.data_dir.clone();
                tracing::info!(data_dir = %data_dir.display(), "embedded PostgreSQL");
                let pg = tokio::task::spawn_blocking(move || EmbeddedPg::start(&data_dir))
                    .await
                    .context("embedded PostgreSQL start-up panicked")??;
                ensure_database(pg.maintenance_options()).await?;
                (pg.connect_options(), Some(pg))
            }
        };
        let pool = connect(options, &Timeouts::from_args(args)).await?;
        migrate(&pool).await?;
        // Serving is worth more than this: a failure is logged, the next start tries again.
        match crate::service::rounds::settle_interrupted(&pool).await {
            Ok((0, 0)) => {}
            Ok((rounds, sections)) => tracing::warn!(
                rounds,
                sections,
                "settled what an interrupted server left: rounds with every result in, \
                 sections whose status disagreed with their last round"
            ),
            Err(e) => tracing::error!(error = %e, "settling after an interrupted server failed"),
        }
        // Web push (issue #37): the VAPID key pair is made on the first start and kept.
        if let Err(e) = crate::service::push::vapid(&pool).await {
            tracing::error!(error = %e, "cannot make the web-push (VAPID) key pair");
        }
        Ok(Database { pool, embedded })
    }
}

/// Without a data folder given, chooses the default one (`./arbiter-data`, or for root a
/// folder PostgreSQL's account can reach: `embedded_pg::default_data_dir`) and says where when
/// it is not the default. Nothing to choose with `DATABASE_URL`.
pub fn choose_data_dir(args: &mut ServerArgs) -> anyhow::Result<()> {
    if args.database_url.is_some() {
        return Ok(());
    }
    let chosen = crate::embedded_pg::default_data_dir(&args.data_dir)?;
    if let Some((blocked, account)) = &chosen.moved {
        tracing::info!(
            "data folder {}: running as root, PostgreSQL runs as {account}, who cannot enter {} \
             (arbiter widens no folder); --data-dir or ARBITER_DATA_DIR chooses another",
            chosen.path.display(),
            blocked.display(),
        );
    }
    args.data_dir = chosen.path;
    Ok(())
}

/// Runs the migrations on one connection without the statement timeout (a migration of a big
/// database may take longer than any request should).
pub async fn migrate(pool: &PgPool) -> anyhow::Result<()> {
    let mut conn = pool.acquire().await.context("connecting to PostgreSQL")?;
    sqlx::query("set statement_timeout = 0")
        .execute(&mut *conn)
        .await?;
    MIGRATOR
        .run(&mut *conn)
        .await
        .context("running database migrations")?;
    sqlx::query("reset statement_timeout")
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// How long the database may keep us waiting.
#[derive(Debug, Clone, Copy)]
pub struct Timeouts {
    /// One SQL statement (`statement_timeout` of every connection).
    pub statement: Duration,
    /// A free connection from the pool.
    pub acquire: Duration,
}

impl Timeouts {
    /// From the command line.
    pub fn from_args(args: &ServerArgs) -> Timeouts {
        Timeouts {
            statement: Duration::from_secs(args.statement_timeout),
            acquire: Duration::from_secs(args.acquire_timeout),
        }
    }
}

/// A pooled connection idle for longer than this is pinged before it is handed out.
const PING_AFTER_IDLE: Duration = Duration::from_secs(1);

/// Opens a pool with settings suited to the server: every connection has the statement
/// timeout, and waiting for a connection is bounded, so a frozen or lost database answers
/// 503 within seconds instead of holding requests.
pub async fn connect(options: PgConnectOptions, timeouts: &Timeouts) -> anyhow::Result<PgPool> {
    let statement = format!("{}ms", timeouts.statement.as_millis());
    PgPoolOptions::new()
        .max_connections(20)
        .acquire_timeout(timeouts.acquire)
        // sqlx pings every connection it hands out by default: a round trip more for each
        // request (three per result). A connection busy a moment ago is alive; one idle
        // for a while (perhaps across a restart of the database) is still checked.
        .test_before_acquire(false)
        .before_acquire(|conn, meta| {
            Box::pin(async move {
                if meta.idle_for > PING_AFTER_IDLE {
                    conn.ping().await?;
                }
                Ok(true)
            })
        })
        .connect_with(options.options([
            ("statement_timeout", statement.as_str()),
            // Prepared statements are planned once per connection, not at every execution
            // (after five, PostgreSQL may keep re-planning "custom" plans: a fifth of its
            // CPU on the results' hot path). Every query here is short and indexed.
            ("plan_cache_mode", "force_generic_plan"),
        ]))
        .await
        .context("connecting to PostgreSQL")
}

/// Creates the application database in a fresh embedded cluster.
pub async fn ensure_database(maintenance: PgConnectOptions) -> anyhow::Result<()> {
    let mut conn = sqlx::PgConnection::connect_with(&maintenance)
        .await
        .context("connecting to the embedded PostgreSQL")?;
    let exists: bool =
        sqlx::query_scalar("select exists (select 1 from pg_database where datname = $1)")
            .bind(DB_NAME)
            .fetch_one(&mut conn)
            .await?;
    if !exists {
        sqlx::query(&format!("create database {DB_NAME}"))
            .execute(&mut conn)
            .await?;
    }
    conn.close().await?;
    Ok(())
}

/// A bound, ready-to-run server.
pub struct Application {
    listener: TcpListener,
    state: AppState,
    limits: crate::connections::Limits,
}

impl Application {
    /// Binds the listener (port 0 picks a free port) over an open database.
    pub async fn build(args: &ServerArgs, pool: PgPool) -> anyhow::Result<Application> {
        let listener = TcpListener::bind(args.bind)
            .await
            .with_context(|| format!("cannot listen on {}", args.bind))?;
        Ok(Application {
            listener,
            limits: crate::connections::Limits::from_args(&args.connections, &args.trusted_proxy),
            state: AppState {
                db: pool,
                security: std::sync::Arc::new(http::Security::from_args(args)),
                live: Default::default(),
                imports: std::sync::Arc::new(tokio::sync::Semaphore::new(1)),
            },
        })
    }

    /// Replaces the sign-in limits (tests shorten the lockouts).
    pub fn with_limits(mut self, limits: crate::service::throttle::Limits) -> Application {
        let mut security = (*self.state.security).clone();
        security.limits = limits;
        self.state.security = std::sync::Arc::new(security);
        self
    }

    /// The port actually bound.
    pub fn port(&self) -> u16 {
        self.listener.local_addr().map(|a| a.port()).unwrap_or(0)
    }

    /// Serves until `shutdown` completes, then finishes in-flight requests.
    pub async fn run_until_stopped(
        self,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> anyhow::Result<()> {
        crate::connections::serve(self.listener, http::app(self.state), self.limits, shutdown)
            .await
            .context("HTTP server failed")
    }
}

/// Completes on SIGINT or SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
    tracing::info!("shutdown signal received");
}

/// `arbiter serve`: open the database, serve until a signal, stop PostgreSQL on the way out
/// (also when anything fails).
pub async fn serve(args: &ServerArgs) -> anyhow::Result<()> {
    let mail = mail_settings(args)?;
    let open_files = crate::connections::raise_fd_limit();
    let database = Database::open(args).await?;
    let app = Application::build(args, database.pool.clone()).await?;
    tracing::info!(
        open_files,
        max_connections = app.limits.max_total,
        max_connections_per_address = app.limits.max_per_address,
        "arbiter listening on http://{}:{}/",
        args.bind.ip(),
        app.port()
    );
    let Database { pool, embedded } = database;
    let backups = embedded.as_ref().map(|pg| {
        tokio::spawn(crate::backup::auto_backups(
            pool.clone(),
            args.data_dir.clone(),
            pg.socket_dir().to_path_buf(),
            pg.secret().to_string(),
        ))
    });
    let embedded = embedded.map(|pg| Arc::new(Mutex::new(pg)));
    let gave_up: Arc<Mutex<Option<String>>> = Arc::default();
    let stop_now = Arc::new(tokio::sync::Notify::new());
    let supervisor = embedded
        .clone()
        .map(|pg| tokio::spawn(supervise(pg, gave_up.clone(), stop_now.clone())));
    // The outbox's worker (issue #37): delivers until the server stops, then finishes the
    // deliveries under way (bounded by their timeout).
    let (stop_worker, worker_stops) = tokio::sync::watch::channel(false);
    let worker = crate::delivery::spawn(
        pool.clone(),
        crate::delivery::Config {
            allow_private: args.allow_private_endpoints,
            push_subject: args.public_url.clone(),
            mail,
            ..Default::default()
        },
        worker_stops,
    );
    let stop = async move {
        tokio::select! {
            () = shutdown_signal() => {}
            () = stop_now.notified() => {}
        }
    };
    let result = app.run_until_stopped(stop).await;
    let _ = stop_worker.send(true);
    let _ = tokio::time::timeout(std::time::Duration::from_secs(20), worker).await;
    for task in [supervisor, backups].into_iter().flatten() {
        task.abort();
        let _ = task.await;
    }
    pool.close().await;
    // The last handle of the embedded cluster: dropping it stops PostgreSQL.
    drop(embedded);
    let failure = gave_up.lock().ok().and_then(|mut g| g.take());
    match failure {
        Some(why) => Err(anyhow::anyhow!(why)),
        None => result,
    }
}

/// E-mail's settings (issue #37): none without `--smtp-url`; an error when it is given
/// without `--smtp-from` or either cannot be read. Links in messages point at `--public-url`,
/// else at the listener.
pub fn mail_settings(args: &ServerArgs) -> anyhow::Result<Option<crate::delivery::mail::Settings>> {
    let Some(url) = args.smtp_url.clone() else {
        return Ok(None);
    };
    let from = args.smtp_from.clone().context(
        "--smtp-url needs --smtp-from (the sender, e.g. \"Arbiter <desk@example.org>\")",
    )?;
    let settings = crate::delivery::mail::Settings {
        url,
        from,
        links: args
            .public_url
            .clone()
            .unwrap_or_else(|| format!("http://{}", args.bind)),
    };
    crate::delivery::mail::Mailer::new(&settings).map_err(|e| anyhow::anyhow!(e))?;
    Ok(Some(settings))
}

/// Restarts the embedded cluster after each attempt's delay (1 s, doubling).
const RESTART_ATTEMPTS: u32 = 6;

/// Watches the embedded cluster's postmaster every second. When it dies (killed, crashed)
/// the cluster is started again, with back-off; meanwhile requests answer 503 and `/readyz`
/// says the database is down. When it cannot come back, the server stops with an error
/// (exit status 1) that says why, so a service manager restarts the whole.
async fn supervise(
    pg: Arc<Mutex<EmbeddedPg>>,
    gave_up: Arc<Mutex<Option<String>>>,
    stop_now: Arc<tokio::sync::Notify>,
) {
    let mut ticks = tokio::time::interval(Duration::from_secs(1));
    loop {
        ticks.tick().await;
        let probe = pg.clone();
        let alive = tokio::task::spawn_blocking(move || {
            probe.lock().map(|pg| pg.postmaster_alive()).unwrap_or(true)
        })
        .await
        .unwrap_or(true);
        if alive {
            continue;
        }
        tracing::error!("the embedded PostgreSQL stopped; restarting it");
        let mut delay = Duration::from_secs(1);
        let mut last_error = String::new();
        let mut back = false;
        for attempt in 1..=RESTART_ATTEMPTS {
            let cluster = pg.clone();
            let restarted = tokio::task::spawn_blocking(move || match cluster.lock() {
                Ok(mut pg) => pg.restart().map_err(|e| e.to_string()),
                Err(_) => Err("the cluster's handle is poisoned".to_string()),
            })
            .await
            .unwrap_or_else(|e| Err(e.to_string()));
            match restarted {
                Ok(()) => {
                    tracing::warn!(attempt, "the embedded PostgreSQL is running again");
                    back = true;
                    break;
                }
                Err(error) => {
                    tracing::error!(attempt, %error, "restarting the embedded PostgreSQL failed");
                    last_error = error;
                }
            }
            tokio::time::sleep(delay).await;
            delay *= 2;
        }
        if !back {
            if let Ok(mut slot) = gave_up.lock() {
                *slot = Some(format!(
                    "the embedded PostgreSQL stopped and could not be restarted \
                     ({RESTART_ATTEMPTS} attempts): {last_error}"
                ));
            }
            stop_now.notify_one();
            return;
        }
    }
}
