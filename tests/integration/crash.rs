//! Crash safety (SPEC §15): the real binary is killed with SIGKILL while it pairs a round of a
//! large section and while it records results; after each restart every round is whole (every
//! entrant on exactly one board, the right number of boards, a game for every board that has
//! two sides) or absent, and every result is stored whole (result, foul rows, round status and
//! audit event together) or not at all.

use rand_chacha::rand_core::{RngCore as _, SeedableRng as _};
use sqlx::PgPool;
use std::io::{Read as _, Write as _};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_arbiter");
/// Large enough that pairing takes a moment in a debug build, small enough for a quick test.
const ENTRANTS: usize = 800;
/// Rounds played; each but the first is paired under a kill, each has its results killed.
const ROUNDS: i32 = 4;
const THREADS: usize = 4;

/// DATABASE_URL with its database swapped for `database` (the query, e.g. `?host=`, kept).
pub(crate) fn url_with_database(base: &str, database: &str) -> String {
    let (head, query) = base
        .split_once('?')
        .map_or((base, None), |(h, q)| (h, Some(q)));
    let authority = head.find("://").map_or(0, |i| i + 3);
    let path = head[authority..]
        .find('/')
        .map_or(head.len(), |i| authority + i);
    let mut url = format!("{}/{database}", &head[..path]);
    if let Some(query) = query {
        url.push('?');
        url.push_str(query);
    }
    url
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// One HTTP/1.1 request on its own connection: status and body (`None` when the server is
/// gone, as it is after a kill).
fn http(
    port: u16,
    method: &str,
    path: &str,
    token: &str,
    content_type: &str,
    body: &str,
) -> Option<(u16, String)> {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).ok()?;
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .ok()?;
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\
         Authorization: Bearer {token}\r\nContent-Type: {content_type}\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .ok()?;
    let mut response = String::new();
    stream.read_to_string(&mut response).ok()?;
    let status = response.split(' ').nth(1)?.parse().ok()?;
    let body = response.split_once("\r\n\r\n")?.1.to_string();
    Some((status, body))
}

fn json(port: u16, method: &str, path: &str, token: &str, body: &str) -> serde_json::Value {
    let (status, text) = http(port, method, path, token, "application/json", body)
        .unwrap_or_else(|| panic!("{method} {path}: no answer"));
    assert!(status < 300, "{method} {path}: {status} {text}");
    serde_json::from_str(&text).unwrap_or(serde_json::Value::Null)
}

pub(crate) struct Server {
    child: Child,
    pub(crate) port: u16,
}

impl Server {
    pub(crate) fn start(url: &str) -> Server {
        Server::start_with(url, &[])
    }

    /// A server with more command-line flags.
    pub(crate) fn start_with(url: &str, flags: &[&str]) -> Server {
        let port = free_port();
        let mut child = Command::new(BIN)
            .arg("--bind")
            .arg(format!("127.0.0.1:{port}"))
            .args(flags)
            .env("DATABASE_URL", url)
            .env("RUST_LOG", "error")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn arbiter");
        let started = Instant::now();
        loop {
            if let Some((200, _)) = http(port, "GET", "/healthz", "", "text/plain", "") {
                return Server { child, port };
            }
            if let Ok(Some(status)) = child.try_wait() {
                panic!("arbiter exited early with {status}");
            }
            assert!(started.elapsed() < Duration::from_secs(60), "no start");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn kill(mut self) {
        self.child.kill().expect("SIGKILL");
        self.child.wait().expect("reap");
    }
}

impl Drop for Server {
    /// A test that fails leaves no server behind.
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The result entered on board `number`, with fouls, so that rows of three tables and the
/// round's status change together.
fn result_for(number: i64) -> String {
    let result = ["red_wins", "black_wins", "draw"][(number % 3) as usize];
    format!(
        r#"{{"result":"{result}","red_fouls":{},"black_fouls":0}}"#,
        number % 2
    )
}

/// Boards of round `n` without a result: (board id, board number).
fn open_boards(port: u16, token: &str, section: &str, n: i32) -> Vec<(String, i64)> {
    let round = json(
        port,
        "GET",
        &format!("/api/v1/sections/{section}/rounds/{n}"),
        token,
        "",
    );
    round["boards"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|b| b["result"].is_null() && !b["black"].is_null())
        .map(|b| {
            (
                b["id"].as_str().unwrap().to_string(),
                b["number"].as_i64().unwrap(),
            )
        })
        .collect()
}

/// Enters results of `boards` from `THREADS` threads; stops quietly once the server is gone.
fn enter_results(
    port: u16,
    token: &str,
    boards: Vec<(String, i64)>,
) -> Vec<std::thread::JoinHandle<()>> {
    let mut shares = vec![Vec::new(); THREADS];
    for (i, board) in boards.into_iter().enumerate() {
        shares[i % THREADS].push(board);
    }
    shares
        .into_iter()
        .map(|share| {
            let token = token.to_string();
            std::thread::spawn(move || {
                for (id, number) in share {
                    let path = format!("/api/v1/boards/{id}/result");
                    let body = result_for(number);
                    if http(port, "PUT", &path, &token, "application/json", &body).is_none() {
                        return;
                    }
                }
            })
        })
        .collect()
}

/// What must hold after any crash.
async fn check_consistency(pool: &PgPool, section: uuid::Uuid) -> (i64, i64) {
    // A COMMIT the killed server had sent still lands after the kill: wait until the dead
    // server's sessions are gone, so that the checks below (several statements) all see the
    // database after it, not some before and some after.
    for _ in 0..100 {
        let busy: i64 = sqlx::query_scalar(
            "select count(*) from pg_stat_activity
              where datname = current_database() and pid <> pg_backend_pid()
                and state is not null and state <> 'idle'",
        )
        .fetch_one(pool)
        .await
        .unwrap();
        if busy == 0 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let rounds: Vec<(uuid::Uuid, i32, String)> = sqlx::query_as(
        "select round_id, number, status from round where section_id = $1 order by number",
    )
    .bind(section)
    .fetch_all(pool)
    .await
    .unwrap();
    let mut results = 0;
    for (i, (round_id, number, status)) in rounds.iter().enumerate() {
        assert_eq!(*number, i as i32 + 1, "round numbers have a gap");
        let (boards, seats, people, max_no, games, missing_games): (i64, i64, i64, i32, i64, i64) =
            sqlx::query_as(
                "select count(*),
                        count(*) + count(black_entrant_id),
                        (select count(distinct e) from board b2,
                             unnest(array[b2.red_entrant_id, b2.black_entrant_id]) e
                          where b2.round_id = $1 and e is not null),
                        coalesce(max(number), 0),
                        (select count(*) from game g join board b3 using (board_id) where b3.round_id = $1),
                        count(*) filter (where black_entrant_id is not null and not exists
                            (select 1 from game g where g.board_id = board.board_id))
                   from board where round_id = $1",
            )
            .bind(round_id)
            .fetch_one(pool)
            .await
            .unwrap();
        assert_eq!(boards, (ENTRANTS / 2) as i64, "round {number}: board count");
        assert_eq!(seats, ENTRANTS as i64, "round {number}: seats");
        assert_eq!(people, ENTRANTS as i64, "round {number}: someone twice");
        assert_eq!(max_no as i64, boards, "round {number}: board numbers");
        assert_eq!(games, boards, "round {number}: games");
        assert_eq!(missing_games, 0, "round {number}: a board without its game");

        // A result is stored with its fouls; the round is completed exactly when all are in.
        let (done, half_written, wrong_fouls): (i64, i64, i64) = sqlx::query_as(
            "select count(*) filter (where g.result is not null),
                    count(*) filter (where (g.result is null) <> (g.reported_result is null)),
                    count(*) filter (where g.result is not null and
                        (select count(*) from foul f where f.game_id = g.game_id and f.side = 'red')
                        <> b.number % 2)
               from game g join board b using (board_id) where b.round_id = $1",
        )
        .bind(round_id)
        .fetch_one(pool)
        .await
        .unwrap();
        assert_eq!(
            half_written, 0,
            "round {number}: result without reported result"
        );
        assert_eq!(wrong_fouls, 0, "round {number}: result without its fouls");
        assert_eq!(
            status == "completed",
            done == boards,
            "round {number}: status {status} with {done}/{boards} results"
        );
        results += done;
    }
    // Each write's audit event is in the same transaction: one per round, one per result.
    let (paired, recorded): (i64, i64) = sqlx::query_as(
        "select count(*) filter (where action = 'pair'),
                -- A result re-sent after a kill is recorded as a correction: count games.
                count(distinct entity_id) filter (where action in ('result', 'correct_result'))
           from audit_event",
    )
    .fetch_one(pool)
    .await
    .unwrap();
    assert_eq!(
        paired,
        rounds.len() as i64,
        "pairings vs. their audit events"
    );
    assert_eq!(recorded, results, "results vs. their audit events");
    (rounds.len() as i64, results)
}

/// The statuses of the section's last round, the section and its event, as `round/section/event`.
async fn statuses(pool: &PgPool, section: uuid::Uuid) -> String {
    sqlx::query_scalar(
        "select concat_ws('/', (select status from round where section_id = s.section_id
                                 order by number desc limit 1),
                          s.status, t.status)
           from section s join tournament t using (tournament_id) where s.section_id = $1",
    )
    .bind(section)
    .fetch_one(pool)
    .await
    .unwrap()
}

#[sqlx::test]
async fn killing_the_server_mid_write_leaves_whole_rounds_and_whole_results(pool: PgPool) {
    let started = Instant::now();
    let base = std::env::var("DATABASE_URL").unwrap();
    let database = pool.connect_options().get_database().unwrap().to_string();
    let url = url_with_database(&base, &database);
    arbiter::service::users::create_user(&pool, "chief", "a long password", "admin")
        .await
        .unwrap();
    let token = arbiter::service::users::login(&pool, "chief", "a long password", "api")
        .await
        .unwrap();
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos() as u64;
    eprintln!("crash test seed {seed}");
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);

    let mut server = Server::start(&url);
    let port = server.port;
    let t = json(
        port,
        "POST",
        "/api/v1/tournaments",
        &token,
        r#"{"name":"Crash Open","game":"xiangqi"}"#,
    );
    let s = json(
        port,
        "POST",
        &format!("/api/v1/tournaments/{}/sections", t["id"].as_str().unwrap()),
        &token,
        &format!(r#"{{"name":"Open","rounds":{ROUNDS}}}"#),
    );
    let section = s["id"].as_str().unwrap().to_string();
    let csv: String = std::iter::once("name,rating\n".to_string())
        .chain((1..=ENTRANTS).map(|i| format!("P{i},{}\n", 1000 + (i * 7919) % 1500)))
        .collect();
    let (status, text) = http(
        port,
        "POST",
        &format!("/api/v1/sections/{section}/import.csv?apply=true"),
        &token,
        "text/csv",
        &csv,
    )
    .unwrap();
    assert_eq!(status, 200, "{text}");
    let section_id: uuid::Uuid = section.parse().unwrap();

    // Round 1 unkilled, to learn how long a pairing takes here.
    let clock = Instant::now();
    json(
        port,
        "POST",
        &format!("/api/v1/sections/{section}/rounds"),
        &token,
        "",
    );
    let pairing_time = clock.elapsed();
    let mut kills = 0;
    for round in 1..=ROUNDS {
        if round > 1 {
            // Kill while pairing, at a random moment of the expected pairing time.
            let path = format!("/api/v1/sections/{section}/rounds");
            let (p, tk) = (server.port, token.clone());
            let request =
                std::thread::spawn(move || http(p, "POST", &path, &tk, "application/json", ""));
            let delay = rng.next_u64() % (pairing_time.as_millis() as u64 * 3 / 2 + 1);
            std::thread::sleep(Duration::from_millis(delay));
            server.kill();
            kills += 1;
            let _ = request.join();
            check_consistency(&pool, section_id).await;
            server = Server::start(&url);
            let paired: i64 =
                sqlx::query_scalar("select count(*) from round where section_id = $1")
                    .bind(section_id)
                    .fetch_one(&pool)
                    .await
                    .unwrap();
            eprintln!(
                "round {round}: pairing killed after {delay} ms: {}",
                if paired < i64::from(round) {
                    "absent"
                } else {
                    "stored whole"
                }
            );
            if paired < i64::from(round) {
                json(
                    server.port,
                    "POST",
                    &format!("/api/v1/sections/{section}/rounds"),
                    &token,
                    "",
                );
            }
        }
        // Results are taken once the round is published.
        json(
            server.port,
            "POST",
            &format!("/api/v1/sections/{section}/rounds/{round}/publish"),
            &token,
            "",
        );
        // Kill while results come in from several threads.
        let boards = open_boards(server.port, &token, &section, round);
        let clock = Instant::now();
        let workers = enter_results(server.port, &token, boards);
        let delay = 20 + rng.next_u64() % 400;
        std::thread::sleep(Duration::from_millis(delay));
        server.kill();
        kills += 1;
        for worker in workers {
            worker.join().unwrap();
        }
        let (_, results) = check_consistency(&pool, section_id).await;
        eprintln!(
            "round {round}: killed after {:?}, {results} results stored so far",
            clock.elapsed()
        );
        // Restart and finish the round.
        server = Server::start(&url);
        let rest = open_boards(server.port, &token, &section, round);
        for worker in enter_results(server.port, &token, rest) {
            worker.join().unwrap();
        }
        assert!(open_boards(server.port, &token, &section, round).is_empty());
    }
    let (rounds, results) = check_consistency(&pool, section_id).await;
    assert_eq!(rounds, i64::from(ROUNDS));
    assert_eq!(results, i64::from(ROUNDS) * (ENTRANTS / 2) as i64);
    assert_eq!(
        statuses(&pool, section_id).await,
        "completed/finished/finished"
    );

    // A kill between the last result's commit and the section's follow-up (its own
    // transaction), or an older version's kill before the round was settled: what is left is
    // put right when the server starts again.
    server.kill();
    sqlx::query("update round set status = 'published' where section_id = $1 and number = $2")
        .bind(section_id)
        .bind(ROUNDS)
        .execute(&pool)
        .await
        .unwrap();
    sqlx::query("update section set status = 'running' where section_id = $1")
        .bind(section_id)
        .execute(&pool)
        .await
        .unwrap();
    sqlx::query("update tournament set status = 'running'")
        .execute(&pool)
        .await
        .unwrap();
    assert_eq!(
        statuses(&pool, section_id).await,
        "published/running/running"
    );
    server = Server::start(&url);
    assert_eq!(
        statuses(&pool, section_id).await,
        "completed/finished/finished"
    );
    server.kill();
    eprintln!(
        "crash test: {kills} kills, pairing {pairing_time:?}, {:?} in all",
        started.elapsed()
    );
}

#[test]
fn the_database_is_swapped_in_any_url_form() {
    assert_eq!(
        url_with_database("postgres://a@127.0.0.1:55432/postgres", "t1"),
        "postgres://a@127.0.0.1:55432/t1"
    );
    assert_eq!(
        url_with_database("postgres://a@localhost/postgres?host=/tmp/run", "t1"),
        "postgres://a@localhost/t1?host=/tmp/run"
    );
    assert_eq!(
        url_with_database("postgres://a@h", "t1"),
        "postgres://a@h/t1"
    );
}
