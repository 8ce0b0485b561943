//! Command-line and environment configuration (clap derive; every flag also reads an env var).

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::net::SocketAddr;
use std::path::PathBuf;

/// arbiter: tournament management for Swiss-system Xiangqi, Jieqi and Banqi events.
#[derive(Debug, Parser)]
#[command(name = "arbiter", version, about)]
pub struct Cli {
    /// Where and how to reach the database (also for `serve` given without subcommand).
    #[command(flatten)]
    pub server: ServerArgs,
    /// What to do; `serve` when omitted.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// Options shared by `serve` and `admin`.
#[derive(Debug, Clone, Args)]
pub struct ServerArgs {
    /// Address to listen on.
    #[arg(
        long,
        env = "ARBITER_BIND",
        default_value = "127.0.0.1:8080",
        global = true
    )]
    pub bind: SocketAddr,
    /// Folder for the embedded PostgreSQL cluster and other state.
    #[arg(
        long,
        env = "ARBITER_DATA_DIR",
        default_value = "./arbiter-data",
        global = true
    )]
    pub data_dir: PathBuf,
    /// PostgreSQL URL; when absent an embedded cluster is started in the data folder.
    #[arg(long, env = "DATABASE_URL", global = true)]
    pub database_url: Option<String>,
    /// The address the public uses (`https://chess.example.org`): QR codes and links on prints
    /// point at it, and when it is https the session cookie is `Secure` with the `__Host-`
    /// prefix. Without it links use the request's host and cookies are not `Secure`.
    #[arg(long, env = "ARBITER_PUBLIC_URL", global = true, value_parser = parse_public_url)]
    pub public_url: Option<String>,
    /// A reverse proxy (CIDR, e.g. `10.0.0.0/8`, repeatable or comma-separated) whose
    /// `X-Forwarded-For` names the client; without one the TCP peer is the client.
    #[arg(
        long,
        env = "ARBITER_TRUSTED_PROXY",
        global = true,
        value_delimiter = ','
    )]
    pub trusted_proxy: Vec<Cidr>,
    /// Seconds a request may take before it is answered 503 (a frozen database must not hold
    /// requests for ever).
    #[arg(long, env = "ARBITER_REQUEST_TIMEOUT", default_value_t = 10, global = true, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub request_timeout: u64,
    /// Seconds pairing a round or importing a file may take (large fields need longer).
    #[arg(long, env = "ARBITER_LONG_REQUEST_TIMEOUT", default_value_t = 300, global = true, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub long_request_timeout: u64,
    /// Seconds one SQL statement may run (PostgreSQL's `statement_timeout`).
    #[arg(long, env = "ARBITER_STATEMENT_TIMEOUT", default_value_t = 8, global = true, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub statement_timeout: u64,
    /// Seconds to wait for a free database connection.
    #[arg(long, env = "ARBITER_ACQUIRE_TIMEOUT", default_value_t = 3, global = true, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub acquire_timeout: u64,
    /// A bearer token (at least 16 characters) with which a scraper not on this machine may
    /// read `/metrics`; without it only loopback clients may.
    #[arg(long, env = "ARBITER_METRICS_TOKEN", global = true, value_parser = parse_metrics_token)]
    pub metrics_token: Option<String>,
    /// Limits on connections (header and idle deadlines, caps per address and in total).
    #[command(flatten)]
    pub connections: ConnectionArgs,
    /// Lets webhooks (and push endpoints) reach loopback, private, link-local and metadata
    /// addresses: for tests and local setups only (off by default).
    #[arg(long, env = "ARBITER_ALLOW_PRIVATE_ENDPOINTS", global = true, action = clap::ArgAction::SetTrue, value_parser = clap::builder::BoolishValueParser::new())]
    pub allow_private_endpoints: bool,
    /// The SMTP server e-mail goes through (`smtp://user:password@host:587`: STARTTLS,
    /// required when credentials are given; `smtps://…:465`: TLS; `?tls=required`,
    /// `opportunistic` or `none` to choose). Without it e-mail is off.
    #[arg(long, env = "ARBITER_SMTP_URL", global = true)]
    pub smtp_url: Option<String>,
    /// The sender of the e-mail (`Arbiter <desk@example.org>`); needed with `--smtp-url`.
    #[arg(long, env = "ARBITER_SMTP_FROM", global = true)]
    pub smtp_from: Option<String>,
}

/// Limits on the HTTP connections themselves, before any request is read: a client that opens
/// connections and never finishes a request must not use up the process's file descriptors.
#[derive(Debug, Clone, Args)]
pub struct ConnectionArgs {
    /// Seconds a new connection has to send the complete headers of its first request; a
    /// connection that has not is closed.
    #[arg(long, env = "ARBITER_HEADER_TIMEOUT", default_value_t = 5, global = true, value_parser = clap::value_parser!(u64).range(1..=300))]
    pub header_timeout: u64,
    /// Seconds a kept-alive connection may wait for the complete headers of its next request
    /// before it is closed.
    #[arg(long, env = "ARBITER_IDLE_TIMEOUT", default_value_t = 30, global = true, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub idle_timeout: u64,
    /// Concurrent connections in total; those over it are closed at once. Default: what the
    /// file-descriptor limit leaves after a reserve for the database pool and files (the
    /// server raises its soft limit to the hard limit at start).
    #[arg(long, env = "ARBITER_MAX_CONNECTIONS", global = true, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub max_connections: Option<u64>,
    /// Concurrent connections from one client address (a hall behind one NAT is one address:
    /// 2,000 phones with two connections each fit the default); those over it are closed at
    /// once. Connections from a `--trusted-proxy` count only towards the total.
    #[arg(long, env = "ARBITER_MAX_CONNECTIONS_PER_ADDRESS", default_value_t = 4000, global = true, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub max_connections_per_address: u64,
}

impl Default for ConnectionArgs {
    fn default() -> ConnectionArgs {
        ConnectionArgs {
            header_timeout: 5,
            idle_timeout: 30,
            max_connections: None,
            max_connections_per_address: 4000,
        }
    }
}

/// `--metrics-token`: long enough not to be guessed, printable.
fn parse_metrics_token(value: &str) -> Result<String, String> {
    if value.len() < 16 || !value.bytes().all(|b| b.is_ascii_graphic()) {
        return Err("must be at least 16 printable characters without spaces".into());
    }
    Ok(value.to_string())
}

/// `--public-url`: an http(s) URL without query or fragment, stored without a trailing slash.
fn parse_public_url(value: &str) -> Result<String, String> {
    let trimmed = value.trim().trim_end_matches('/');
    let rest = trimmed
        .strip_prefix("https://")
        .or_else(|| trimmed.strip_prefix("http://"))
        .ok_or("must start with https:// or http://")?;
    if rest.is_empty() || rest.contains(['?', '#', ' ', '\\']) {
        return Err("must be a plain address such as https://chess.example.org".into());
    }
    Ok(trimmed.to_string())
}

/// An address block such as `10.0.0.0/8`, `192.168.1.7` or `fd00::/8`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cidr {
    /// The network address.
    pub addr: std::net::IpAddr,
    /// Prefix length in bits.
    pub prefix: u8,
}

impl Cidr {
    /// Whether `ip` lies in the block (an IPv4-mapped IPv6 address counts as IPv4).
    pub fn contains(&self, ip: std::net::IpAddr) -> bool {
        use std::net::IpAddr;
        let ip = match ip {
            IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
            v4 => v4,
        };
        match (self.addr, ip) {
            (IpAddr::V4(net), IpAddr::V4(ip)) => {
                let mask = u32::MAX
                    .checked_shl(32 - u32::from(self.prefix))
                    .unwrap_or(0);
                u32::from(net) & mask == u32::from(ip) & mask
            }
            (IpAddr::V6(net), IpAddr::V6(ip)) => {
                let mask = u128::MAX
                    .checked_shl(128 - u32::from(self.prefix))
                    .unwrap_or(0);
                u128::from(net) & mask == u128::from(ip) & mask
            }
            _ => false,
        }
    }
}

impl std::str::FromStr for Cidr {
    type Err = String;

    fn from_str(value: &str) -> Result<Cidr, String> {
        let (addr, prefix) = match value.trim().split_once('/') {
            Some((addr, prefix)) => (addr, Some(prefix)),
            None => (value.trim(), None),
        };
        let addr: std::net::IpAddr = addr
            .parse()
            .map_err(|_| format!("{value:?} is not an IP address or CIDR block"))?;
        let max = if addr.is_ipv4() { 32 } else { 128 };
        let prefix = match prefix {
            None => max,
            Some(p) => p
                .parse::<u8>()
                .ok()
                .filter(|p| *p <= max)
                .ok_or_else(|| format!("{value:?}: the prefix must be 0 to {max}"))?,
        };
        Ok(Cidr { addr, prefix })
    }
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the HTTP server (the default).
    Serve,
    /// Administration: users.
    Admin {
        /// Admin action.
        #[command(subcommand)]
        action: AdminAction,
    },
    /// Accounts: create, change a password, list.
    User {
        /// User action.
        #[command(subcommand)]
        action: UserAction,
    },
    /// Pair the next round of a TRF file and print it (`red black` per line, `bye N`).
    Pair(PairArgs),
    /// TRF file tools.
    Trf {
        /// TRF action.
        #[command(subcommand)]
        action: TrfAction,
    },
    /// Print the standings of a TRF file as TSV.
    Standings(StandingsArgs),
    /// Print a random hidden-piece set-up with its commitment.
    Setup(SetupArgs),
    /// Count the leaf nodes of the legal move tree of a position (perft).
    Perft(PerftArgs),
    /// Game record tools.
    Record {
        /// Record action.
        #[command(subcommand)]
        action: RecordAction,
    },
    /// Benchmarks (release build: `cargo run --release -- bench pair`).
    Bench {
        /// What to measure.
        #[command(subcommand)]
        action: BenchAction,
    },
    /// Write a consistent snapshot of the whole database to FILE (PostgreSQL custom format).
    Backup {
        /// The backup file to write.
        file: PathBuf,
    },
    /// Replace the whole database by the backup FILE (stop the server first).
    Restore {
        /// The backup file to read.
        file: PathBuf,
    },
    /// Start a throwaway PostgreSQL cluster, run COMMAND with DATABASE_URL pointing at it,
    /// then stop the cluster (used by the test script).
    WithDb {
        /// The command and its arguments.
        #[arg(trailing_var_arg = true, required = true, allow_hyphen_values = true)]
        command: Vec<String>,
    },
}

/// `arbiter admin …`
#[derive(Debug, Subcommand)]
pub enum AdminAction {
    /// Create an admin user; the password is read from standard input (first line).
    Create {
        /// Login name.
        name: String,
    },
}

/// `arbiter user …`
#[derive(Debug, Subcommand)]
pub enum UserAction {
    /// Create an account; the password is read from standard input.
    Create {
        /// Login name.
        name: String,
        /// `admin` (manages users, every tournament) or `user` (what the tournaments' staff
        /// assignments allow).
        #[arg(long, value_enum, default_value = "user")]
        role: AccountRole,
    },
    /// Set an account's password (read from standard input); its sessions end.
    Passwd {
        /// Login name.
        name: String,
    },
    /// List the accounts (name, role, disabled, created).
    List,
}

/// An account's role.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum AccountRole {
    /// Administrator.
    Admin,
    /// Everyone else.
    User,
}

impl AccountRole {
    /// The stored value.
    pub fn as_str(self) -> &'static str {
        match self {
            AccountRole::Admin => "admin",
            AccountRole::User => "user",
        }
    }
}

/// `arbiter bench …`
#[derive(Debug, Subcommand)]
pub enum BenchAction {
    /// Time the pairing of one round of generated events of several sizes.
    Pair(BenchPairArgs),
}

/// `arbiter bench pair`
#[derive(Debug, Args)]
pub struct BenchPairArgs {
    /// Numbers of entrants, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "100,1000,2000,5000")]
    pub sizes: Vec<u32>,
    /// The round to time (the rounds before it are generated, paired by the engine itself).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=20))]
    pub round: u32,
    /// Pairing system.
    #[arg(long, value_enum, default_value = "dutch")]
    pub system: SystemArg,
    /// Seed of the generated events.
    #[arg(long, default_value_t = 7)]
    pub seed: u64,
}

/// `arbiter trf …`
#[derive(Debug, Subcommand)]
pub enum TrfAction {
    /// Parse a TRF file and write it back out (round-trip tool).
    Normalize {
        /// The TRF file.
        file: PathBuf,
    },
}

/// Pairing systems offered on the command line.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum SystemArg {
    /// FIDE Dutch system (C.04.3).
    Dutch,
    /// Chinese Swiss (积分编排).
    Chinese,
}

/// Editions of the Dutch rules.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum EditionArg {
    /// 2025 edition (in force from 2026), the default.
    #[value(name = "2025")]
    E2025,
    /// 2017 edition.
    #[value(name = "2017")]
    E2017,
}

/// `arbiter pair`
#[derive(Debug, Args)]
pub struct PairArgs {
    /// Pairing system.
    #[arg(long, value_enum, default_value = "dutch")]
    pub system: SystemArg,
    /// Rules edition (Dutch only).
    #[arg(long, value_enum, default_value = "2025")]
    pub edition: EditionArg,
    /// The TRF file with the tournament so far.
    pub file: PathBuf,
}

/// `arbiter standings`
#[derive(Debug, Args)]
pub struct StandingsArgs {
    /// The TRF file.
    pub file: PathBuf,
    /// Points for win, draw, loss (e.g. `2,1,0`); default from the file, else 1,0.5,0.
    #[arg(long)]
    pub points: Option<String>,
    /// Comma-separated tiebreak keys in FIDE descriptor syntax (e.g. `BH/C1,SB,DE`).
    #[arg(long, conflicts_with = "preset")]
    pub tiebreaks: Option<String>,
    /// A named preset chain (e.g. `seed002_main`).
    #[arg(long)]
    pub preset: Option<String>,
    /// Unplayed-round handling: cxa (default), fide2023, fide2026, none.
    #[arg(long)]
    pub unplayed: Option<String>,
}

/// Games with hidden-piece set-ups.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum GameArg {
    /// Jieqi (揭棋).
    Jieqi,
    /// Banqi (暗棋).
    Banqi,
}

/// `arbiter setup`
#[derive(Debug, Args)]
pub struct SetupArgs {
    /// Which game.
    #[arg(long, value_enum)]
    pub game: GameArg,
    /// Seed for a reproducible set-up; a CSPRNG is used when absent.
    #[arg(long)]
    pub seed: Option<u64>,
}

/// Games with a rules engine for records.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum RulesGameArg {
    /// Xiangqi (象棋).
    Xiangqi,
    /// Jieqi (揭棋): the start has every piece face down and unknown, so moves that reveal
    /// must name the piece; a FEN may use `X`/`x` for face-down pieces.
    Jieqi,
}

/// `arbiter perft`
#[derive(Debug, Args)]
pub struct PerftArgs {
    /// Which game.
    #[arg(long, value_enum, default_value = "xiangqi")]
    pub game: RulesGameArg,
    /// The position: a FEN, short (`board side`) or six-field, as one argument.
    pub fen: String,
    /// Depth in half-moves.
    pub depth: u32,
}

/// `arbiter record …`
#[derive(Debug, Subcommand)]
pub enum RecordAction {
    /// Convert a record from one move notation to another (one move per line).
    Convert(ConvertArgs),
}

/// Move notations.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum NotationArg {
    /// ICCS coordinates (`h2e2`).
    Iccs,
    /// WXF (`C2.5`).
    Wxf,
    /// Chinese (炮二平五).
    Chinese,
}

/// Chinese script for printing.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum ScriptArg {
    /// 车马相仕帅炮兵, 进退平.
    Simplified,
    /// 車馬相仕帥炮兵, 進退平.
    Traditional,
}

/// `arbiter record convert`
#[derive(Debug, Args)]
pub struct ConvertArgs {
    /// Which game.
    #[arg(long, value_enum, default_value = "xiangqi")]
    pub game: RulesGameArg,
    /// Notation of the file.
    #[arg(long, value_enum)]
    pub from: NotationArg,
    /// Notation to print.
    #[arg(long, value_enum)]
    pub to: NotationArg,
    /// Start position (FEN, short or six-field, as one argument); the game's start if absent.
    #[arg(long)]
    pub fen: Option<String>,
    /// Chinese script for `--to chinese`.
    #[arg(long, value_enum, default_value = "simplified")]
    pub script: ScriptArg,
    /// The record: whitespace-separated moves; move numbers such as `1.` are ignored.
    pub file: PathBuf,
}
