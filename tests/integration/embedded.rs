//! The real binary on its embedded PostgreSQL: start, SIGTERM, restart with the data kept,
//! recovery after SIGKILL, a second server refused, `admin create` beside a running server.

use std::io::{Read as _, Write as _};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_arbiter");

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn arbiter(data_dir: &Path, port: u16) -> Command {
    let mut cmd = Command::new(BIN);
    cmd.arg("--data-dir")
        .arg(data_dir)
        .arg("--bind")
        .arg(format!("127.0.0.1:{port}"))
        .env_remove("DATABASE_URL")
        .env("RUST_LOG", "warn");
    cmd
}

fn start(data_dir: &Path, port: u16) -> Child {
    arbiter(data_dir, port)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn arbiter")
}

/// A bare HTTP/1.1 GET: status code and body.
fn http_get(port: u16, path: &str) -> Option<(u16, String)> {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).ok()?;
    stream.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
    )
    .ok()?;
    let mut response = String::new();
    stream.read_to_string(&mut response).ok()?;
    let status = response.split(' ').nth(1)?.parse().ok()?;
    let body = response
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_string())
        .unwrap_or_default();
    Some((status, body))
}

fn wait_healthy(port: u16, child: &mut Child) -> String {
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(90) {
        if let Some((200, body)) = http_get(port, "/healthz") {
            return body;
        }
        if let Ok(Some(status)) = child.try_wait() {
            panic!("arbiter exited early with {status}");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    panic!("arbiter did not become healthy within 90 s");
}

fn wait_exit(child: &mut Child) -> std::process::ExitStatus {
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(60) {
        if let Ok(Some(status)) = child.try_wait() {
            return status;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("arbiter did not exit within 60 s");
}

/// PostgreSQL processes whose command line names this data folder.
fn postgres_processes(data_dir: &Path) -> Vec<String> {
    let needle = data_dir.join("pg").display().to_string();
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|entry| {
            let cmdline = std::fs::read(entry.path().join("cmdline")).ok()?;
            let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
            (cmdline.contains("postgres") && cmdline.contains(&needle)).then_some(cmdline)
        })
        .collect()
}

fn signal(child: &Child, sig: nix::sys::signal::Signal) {
    nix::sys::signal::kill(nix::unistd::Pid::from_raw(child.id() as i32), sig).expect("signal");
}

fn create_admin(data_dir: &Path, name: &str) -> std::process::Output {
    let mut child = arbiter(data_dir, 1)
        .args(["admin", "create", name])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn admin create");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"a long password\n")
        .unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn the_embedded_cluster_starts_stops_restarts_and_recovers_from_a_crash() {
    let tmp = reachable_tempdir();
    let data_dir = tmp.path().join("data");
    let port = free_port();

    // First start initialises the cluster.
    let mut server = start(&data_dir, port);
    let body = wait_healthy(port, &mut server);
    assert!(body.contains(r#""database":"ok""#), "{body}");
    assert!(data_dir.join("pg/PG_VERSION").is_file());

    // A second server on the same data folder is refused at once, with a clear message.
    let second = arbiter(&data_dir, free_port()).output().unwrap();
    assert!(!second.status.success());
    assert!(
        String::from_utf8_lossy(&second.stderr).contains("already running"),
        "{:?}",
        second
    );

    // `admin create` works beside the running server, on its cluster.
    let created = create_admin(&data_dir, "chief");
    assert!(
        created.status.success(),
        "{}",
        String::from_utf8_lossy(&created.stderr)
    );

    // SIGTERM stops the server and its PostgreSQL.
    signal(&server, nix::sys::signal::Signal::SIGTERM);
    assert!(wait_exit(&mut server).success());
    assert!(
        postgres_processes(&data_dir).is_empty(),
        "{:?}",
        postgres_processes(&data_dir)
    );

    // A restart reuses the data: the admin made before is still there.
    let mut server = start(&data_dir, port);
    wait_healthy(port, &mut server);
    let again = create_admin(&data_dir, "chief");
    assert!(!again.status.success());
    assert!(
        String::from_utf8_lossy(&again.stderr).contains("already exists"),
        "{:?}",
        again
    );

    // After kill -9 (PostgreSQL is orphaned), the next start recovers.
    signal(&server, nix::sys::signal::Signal::SIGKILL);
    wait_exit(&mut server);
    let mut server = start(&data_dir, port);
    wait_healthy(port, &mut server);
    signal(&server, nix::sys::signal::Signal::SIGTERM);
    assert!(wait_exit(&mut server).success());
    assert!(postgres_processes(&data_dir).is_empty());

    // With no server running, `admin create` starts and stops the cluster itself.
    let offline = create_admin(&data_dir, "deputy");
    assert!(
        offline.status.success(),
        "{}",
        String::from_utf8_lossy(&offline.stderr)
    );
    assert!(postgres_processes(&data_dir).is_empty());
}

/// A temporary folder the cluster's user can enter (arbiter never widens folders above its
/// data folder; `tempdir()` makes 0700 folders).
fn reachable_tempdir() -> tempfile::TempDir {
    use std::os::unix::fs::PermissionsExt as _;
    let tmp = tempfile::tempdir().unwrap();
    std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(0o711)).unwrap();
    tmp
}

/// `psql -c 'select 1'` against the cluster as `user` (uid, gid), without the password.
fn psql_as(socket_dir: &Path, ids: Option<(u32, u32)>) -> std::process::Output {
    use std::os::unix::process::CommandExt as _;
    let mut cmd = Command::new("psql");
    cmd.args(["-h"])
        .arg(socket_dir)
        .args(["-U", "arbiter", "-d", "arbiter", "-w", "-c", "select 1"])
        .current_dir("/")
        .env_remove("PGPASSWORD")
        .env("PGCONNECT_TIMEOUT", "5");
    if let Some((uid, gid)) = ids {
        cmd.uid(uid).gid(gid);
    }
    cmd.output().expect("run psql")
}

#[test]
fn the_embedded_cluster_refuses_other_local_accounts() {
    use std::os::unix::fs::{MetadataExt as _, PermissionsExt as _};
    let tmp = reachable_tempdir();
    let data_dir = tmp.path().join("data");
    let port = free_port();
    let mut server = start(&data_dir, port);
    wait_healthy(port, &mut server);
    let run = data_dir.join("run");
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&run), 0o700, "socket folder");
    assert_eq!(mode(&data_dir.join("pg-secret")), 0o600, "secret file");
    let hba = std::fs::read_to_string(data_dir.join("pg/pg_hba.conf")).unwrap_or_default();
    assert!(!hba.contains("trust"), "{hba}");
    // No folder above the data folder was widened.
    assert_eq!(mode(tmp.path()), 0o711);
    if nix::unistd::Uid::effective().is_root() {
        // Another local account cannot reach the socket.
        let nobody = psql_as(&run, Some((65534, 65534)));
        assert!(!nobody.status.success(), "nobody connected: {nobody:?}");
        // Even the cluster's own account needs the password.
        let owner = std::fs::metadata(&run).unwrap();
        let as_owner = psql_as(&run, Some((owner.uid(), owner.gid())));
        assert!(
            !as_owner.status.success(),
            "the owner connected without the password"
        );
        let said = String::from_utf8_lossy(&as_owner.stderr);
        assert!(said.contains("password"), "{said}");
    }
    // The commands beside the running server reach it with the password from pg-secret.
    let mut create = arbiter(&data_dir, 1)
        .args(["user", "create", "deputy", "--role", "user"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    create
        .stdin
        .take()
        .unwrap()
        .write_all(b"a long password\n")
        .unwrap();
    let created = create.wait_with_output().unwrap();
    assert!(created.status.success(), "{created:?}");
    let listed = arbiter(&data_dir, 1)
        .args(["user", "list"])
        .output()
        .unwrap();
    let listed = String::from_utf8_lossy(&listed.stdout).into_owned();
    assert!(listed.contains("deputy\tuser\tactive"), "{listed}");
    signal(&server, nix::sys::signal::Signal::SIGTERM);
    assert!(wait_exit(&mut server).success());
}

#[test]
fn without_postgresql_binaries_the_server_says_how_to_get_them() {
    let tmp = tempfile::tempdir().unwrap();
    let output = arbiter(&tmp.path().join("data"), free_port())
        .env("ARBITER_PG_BIN", tmp.path())
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("apt-get install postgresql") && stderr.contains("DATABASE_URL"),
        "{stderr}"
    );
}

/// The embedded cluster's postmaster and every process it started (backends, checkpointer…).
fn cluster_pids(data_dir: &Path) -> Vec<i32> {
    let pid_file = std::fs::read_to_string(data_dir.join("pg/postmaster.pid")).unwrap();
    let postmaster: i32 = pid_file.lines().next().unwrap().trim().parse().unwrap();
    let mut pids = vec![postmaster];
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // `pid (comm) state ppid …`; comm may hold spaces, so read after the last ')'.
        let Some((head, rest)) = stat.rsplit_once(')') else {
            continue;
        };
        let ppid = rest
            .split_whitespace()
            .nth(1)
            .and_then(|p| p.parse::<i32>().ok());
        let pid = head
            .split_whitespace()
            .next()
            .and_then(|p| p.parse::<i32>().ok());
        if let (Some(pid), Some(ppid)) = (pid, ppid) {
            if ppid == postmaster {
                pids.push(pid);
            }
        }
    }
    pids
}

fn signal_all(pids: &[i32], sig: nix::sys::signal::Signal) {
    for pid in pids {
        let _ = nix::sys::signal::kill(nix::unistd::Pid::from_raw(*pid), sig);
    }
}

#[test]
fn with_the_database_frozen_requests_answer_503_in_time_and_recover_after() {
    let tmp = reachable_tempdir();
    let data_dir = tmp.path().join("data");
    let port = free_port();
    let mut server = arbiter(&data_dir, port)
        .args([
            "--request-timeout",
            "3",
            "--statement-timeout",
            "2",
            "--acquire-timeout",
            "1",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn arbiter");
    wait_healthy(port, &mut server);
    let (status, _) = http_get(port, "/api/v1/tournaments").unwrap();
    assert_eq!(status, 200);

    // SIGSTOP every PostgreSQL process: queries hang, connections hang.
    let pids = cluster_pids(&data_dir);
    assert!(pids.len() > 1, "{pids:?}");
    signal_all(&pids, nix::sys::signal::Signal::SIGSTOP);
    let frozen = std::panic::catch_unwind(|| {
        for path in ["/api/v1/tournaments", "/"] {
            let started = Instant::now();
            let answer = http_get(port, path);
            let took = started.elapsed();
            let (status, body) = answer.expect("an answer, not a hang");
            assert_eq!(status, 503, "{path}: {body}");
            assert!(took < Duration::from_millis(4500), "{path} took {took:?}");
        }
    });
    signal_all(&pids, nix::sys::signal::Signal::SIGCONT);
    if let Err(panic) = frozen {
        signal(&server, nix::sys::signal::Signal::SIGTERM);
        wait_exit(&mut server);
        std::panic::resume_unwind(panic);
    }

    // Thawed: the same requests succeed again without a restart.
    let started = Instant::now();
    loop {
        if let Some((200, _)) = http_get(port, "/api/v1/tournaments") {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "no recovery within 20 s"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    assert_eq!(http_get(port, "/").map(|r| r.0), Some(200));
    signal(&server, nix::sys::signal::Signal::SIGTERM);
    assert!(wait_exit(&mut server).success());
}

#[test]
fn when_the_embedded_postmaster_is_killed_the_server_restarts_it_and_serves_again() {
    let tmp = reachable_tempdir();
    let data_dir = tmp.path().join("data");
    let port = free_port();
    let mut server = arbiter(&data_dir, port)
        .args(["--request-timeout", "5", "--acquire-timeout", "1"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn arbiter");
    wait_healthy(port, &mut server);
    assert_eq!(
        http_get(port, "/api/v1/tournaments").map(|r| r.0),
        Some(200)
    );
    let before = cluster_pids(&data_dir)[0];
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(before),
        nix::sys::signal::Signal::SIGKILL,
    )
    .unwrap();

    // Meanwhile /readyz is honest; then, with no help, the database is back.
    let started = Instant::now();
    let mut saw_down = false;
    loop {
        match http_get(port, "/readyz") {
            Some((200, _))
                if (saw_down || started.elapsed() > Duration::from_secs(3))
                    && http_get(port, "/api/v1/tournaments").map(|r| r.0) == Some(200) =>
            {
                break;
            }
            Some((503, _)) => saw_down = true,
            _ => {}
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "not back within 60 s"
        );
        assert!(server.try_wait().unwrap().is_none(), "the server exited");
        std::thread::sleep(Duration::from_millis(200));
    }
    let after = cluster_pids(&data_dir)[0];
    assert_ne!(before, after, "a new postmaster");
    signal(&server, nix::sys::signal::Signal::SIGTERM);
    assert!(wait_exit(&mut server).success());
    assert!(postgres_processes(&data_dir).is_empty());
}

/// One HTTP/1.1 request with an optional bearer token and JSON body: status and body.
fn http_call(
    port: u16,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&serde_json::Value>,
) -> (u16, String) {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let auth = token
        .map(|t| format!("Authorization: Bearer {t}\r\n"))
        .unwrap_or_default();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n{auth}\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let status = response.split(' ').nth(1).unwrap().parse().unwrap();
    let body = response
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_string())
        .unwrap_or_default();
    // Chunked bodies: the JSON is between the first chunk size line and the last chunk.
    let body = if body.trim_start().starts_with(['{', '[']) {
        body
    } else {
        body.split_once("\r\n")
            .map(|(_, rest)| {
                rest.rsplit_once("\r\n0\r\n")
                    .map_or(rest, |(b, _)| b)
                    .to_string()
            })
            .unwrap_or(body)
    };
    (status, body)
}

fn json_of(reply: (u16, String), status: u16) -> serde_json::Value {
    assert_eq!(reply.0, status, "{}", reply.1);
    serde_json::from_str(reply.1.trim()).unwrap_or_else(|e| panic!("{e}: {}", reply.1))
}

#[test]
fn a_backup_restored_into_an_empty_data_folder_gives_the_same_event() {
    use serde_json::json;
    let tmp = reachable_tempdir();
    let data_dir = tmp.path().join("data");
    let port = free_port();
    let mut server = start(&data_dir, port);
    wait_healthy(port, &mut server);
    assert!(create_admin(&data_dir, "chief").status.success());
    let login = json_of(
        http_call(
            port,
            "POST",
            "/api/v1/auth/login",
            None,
            Some(&json!({"username": "chief", "password": "a long password"})),
        ),
        200,
    );
    let token = login["token"].as_str().unwrap().to_string();
    let t = json_of(
        http_call(
            port,
            "POST",
            "/api/v1/tournaments",
            Some(&token),
            Some(&json!({"name": "Backup Open", "game": "xiangqi"})),
        ),
        201,
    );
    let tid = t["id"].as_str().unwrap();
    let s = json_of(
        http_call(
            port,
            "POST",
            &format!("/api/v1/tournaments/{tid}/sections"),
            Some(&token),
            Some(&json!({"name": "A", "rounds": 3})),
        ),
        201,
    );
    let sid = s["id"].as_str().unwrap();
    for i in 1..=6 {
        json_of(
            http_call(
                port,
                "POST",
                &format!("/api/v1/sections/{sid}/entrants"),
                Some(&token),
                Some(&json!({"name": format!("P{i}"), "rating": 2000 - i})),
            ),
            201,
        );
    }
    let round = json_of(
        http_call(
            port,
            "POST",
            &format!("/api/v1/sections/{sid}/rounds"),
            Some(&token),
            None,
        ),
        201,
    );
    json_of(
        http_call(
            port,
            "POST",
            &format!("/api/v1/sections/{sid}/rounds/1/publish"),
            Some(&token),
            None,
        ),
        200,
    );
    for (i, b) in round["boards"].as_array().unwrap().iter().enumerate() {
        let result = ["red_wins", "draw", "black_wins"][i % 3];
        json_of(
            http_call(
                port,
                "PUT",
                &format!("/api/v1/boards/{}/result", b["id"].as_str().unwrap()),
                Some(&token),
                Some(&json!({"result": result})),
            ),
            200,
        );
    }
    // In embedded mode a backup is made by itself once a round is paired or completed.
    let started = Instant::now();
    let auto = data_dir.join("backups");
    while std::fs::read_dir(&auto).map(|d| d.count()).unwrap_or(0) == 0 {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "no automatic backup"
        );
        std::thread::sleep(Duration::from_millis(250));
    }
    let pages = |port: u16| -> Vec<String> {
        [
            format!("/api/v1/sections/{sid}/standings"),
            format!("/api/v1/sections/{sid}/rounds/1"),
            format!("/api/v1/tournaments/{tid}/audit"),
        ]
        .iter()
        .map(|path| {
            let (status, body) = http_call(port, "GET", path, Some(&token), None);
            assert_eq!(status, 200, "{path}: {body}");
            body
        })
        .collect()
    };
    let before = pages(port);

    // A backup beside the running server.
    let file = tmp.path().join("event.dump");
    let out = arbiter(&data_dir, 1)
        .arg("backup")
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(file.is_file());
    // Backups hold password hashes and contact data: no other local account reads them.
    {
        use std::os::unix::fs::PermissionsExt as _;
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&file), 0o600, "arbiter backup FILE");
        assert_eq!(mode(&auto), 0o700, "the backups folder");
        for dump in std::fs::read_dir(&auto).unwrap().flatten() {
            assert_eq!(mode(&dump.path()), 0o600, "{}", dump.path().display());
        }
    }
    signal(&server, nix::sys::signal::Signal::SIGTERM);
    assert!(wait_exit(&mut server).success());

    // Restored into an empty data folder: the same standings, pairings and audit log (and
    // the same sessions, so the same token works).
    let other = tmp.path().join("other");
    let out = arbiter(&other, 1)
        .arg("restore")
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let port2 = free_port();
    let mut restored = start(&other, port2);
    wait_healthy(port2, &mut restored);
    assert_eq!(pages(port2), before);
    // Restoring beside a running server is refused.
    let refused = arbiter(&other, 1)
        .arg("restore")
        .arg(&file)
        .output()
        .unwrap();
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("stop it"));
    signal(&restored, nix::sys::signal::Signal::SIGTERM);
    assert!(wait_exit(&mut restored).success());
}

/// Issue #38: as root, with no flags, from a private (0700) working folder that PostgreSQL's
/// account cannot enter, the server still comes up on the embedded default: in the system
/// data folder (here the one `ARBITER_SYSTEM_DATA_DIR` names, so that the test leaves the
/// machine's `/var/lib/arbiter` alone), made 0700 for the cluster's account, said in the log;
/// no folder is widened; `admin create` and `user list` without flags find the same database.
#[test]
fn as_root_in_a_private_folder_the_server_starts_without_flags_in_the_system_data_folder() {
    use std::os::unix::fs::{MetadataExt as _, PermissionsExt as _};
    if !nix::unistd::Uid::effective().is_root() {
        eprintln!("skipped: the tests do not run as root");
        return;
    }
    let home = tempfile::tempdir().unwrap();
    std::fs::set_permissions(home.path(), std::fs::Permissions::from_mode(0o700)).unwrap();
    let system = reachable_tempdir();
    let system_dir = system.path().join("arbiter");
    let port = free_port();
    let log = home.path().join("server.log");
    let bare = || {
        let mut cmd = Command::new(BIN);
        cmd.current_dir(home.path())
            .env("HOME", home.path())
            .env("ARBITER_SYSTEM_DATA_DIR", &system_dir)
            .env("ARBITER_BIND", format!("127.0.0.1:{port}"))
            .env_remove("ARBITER_DATA_DIR")
            .env_remove("DATABASE_URL")
            .env("RUST_LOG", "info");
        cmd
    };
    let mut server = bare()
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .expect("spawn arbiter");
    let body = wait_healthy(port, &mut server);
    assert!(body.contains(r#""database":"ok""#), "{body}");
    let said = std::fs::read_to_string(&log).unwrap();
    assert!(
        said.contains(&format!("data folder {}", system_dir.display()))
            && said.contains(&home.path().display().to_string()),
        "{said}"
    );
    // The cluster is in the system folder, which is 0700 and the cluster's account's…
    assert!(system_dir.join("pg/PG_VERSION").is_file());
    let meta = std::fs::metadata(&system_dir).unwrap();
    assert_eq!(meta.permissions().mode() & 0o777, 0o700);
    assert_ne!(meta.uid(), 0, "given to PostgreSQL's account");
    assert_eq!(
        meta.uid(),
        std::fs::metadata(system_dir.join("pg")).unwrap().uid()
    );
    // …and nothing was made in, or widened on the way to, the private folder.
    assert!(!home.path().join("arbiter-data").exists());
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(home.path()), 0o700);
    assert_eq!(mode(system.path()), 0o711);

    // `admin create` without flags, from the same folder, reaches the same database.
    let mut admin = bare()
        .args(["admin", "create", "chief"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    admin
        .stdin
        .take()
        .unwrap()
        .write_all(b"a long password\n")
        .unwrap();
    let created = admin.wait_with_output().unwrap();
    assert!(created.status.success(), "{created:?}");
    let listed = bare().args(["user", "list"]).output().unwrap();
    let listed = String::from_utf8_lossy(&listed.stdout).into_owned();
    assert!(listed.contains("chief\tadmin\tactive"), "{listed}");

    // Stopped and started again without flags: the same folder, the admin still there.
    signal(&server, nix::sys::signal::Signal::SIGTERM);
    assert!(wait_exit(&mut server).success());
    let mut server = bare()
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_healthy(port, &mut server);
    let listed = bare().args(["user", "list"]).output().unwrap();
    assert!(
        String::from_utf8_lossy(&listed.stdout).contains("chief\tadmin\tactive"),
        "{listed:?}"
    );
    signal(&server, nix::sys::signal::Signal::SIGTERM);
    assert!(wait_exit(&mut server).success());
    assert!(postgres_processes(&system_dir).is_empty());
}
