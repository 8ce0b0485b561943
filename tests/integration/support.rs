//! Helpers: drive the router in process and read JSON back.

use arbiter::http::{app, AppState};
use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt as _;
use serde_json::Value;
use sqlx::PgPool;
use std::collections::BTreeMap;
use tower::ServiceExt as _;

/// A response, read whole.
pub struct Reply {
    pub status: StatusCode,
    pub content_type: String,
    pub headers: axum::http::HeaderMap,
    pub text: String,
}

impl Reply {
    /// The body as JSON (panics with the body text when it is not JSON).
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.text).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.text))
    }
}

/// The state of in-process requests. They come from no address (one limiter bucket), and the
/// seeds register whole fields through the API, so registrations are not limited here (the
/// limiter has its own tests over TCP in `staff.rs`); sign-ins keep the real limits.
pub fn state(pool: &PgPool) -> AppState {
    let mut limits = arbiter::service::throttle::Limits::default();
    limits.registration.limit = 1_000_000;
    let mut state = AppState::new(pool.clone());
    state.security = std::sync::Arc::new(arbiter::http::Security {
        limits,
        ..arbiter::http::Security::default()
    });
    state
}

/// Sends one request to a fresh router over `pool`.
pub async fn send(pool: &PgPool, request: Request<Body>) -> Reply {
    let response = app(state(pool))
        .oneshot(request)
        .await
        .expect("router is infallible");
    let status = response.status();
    let content_type = response
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    let headers = response.headers().clone();
    let bytes = response
        .into_body()
        .collect()
        .await
        .expect("body")
        .to_bytes();
    Reply {
        status,
        content_type,
        headers,
        text: String::from_utf8_lossy(&bytes).into_owned(),
    }
}

/// `GET uri`.
pub async fn get(pool: &PgPool, uri: &str) -> Reply {
    send(
        pool,
        Request::get(uri).body(Body::empty()).expect("request"),
    )
    .await
}

/// `POST uri` with a raw body and a content type.
pub async fn post_raw(pool: &PgPool, uri: &str, content_type: &str, body: &str) -> Reply {
    let request = Request::post(uri)
        .header("content-type", content_type)
        .body(Body::from(body.to_string()))
        .expect("request");
    send(pool, request).await
}

/// `POST uri` with a JSON body.
pub async fn post_json(pool: &PgPool, uri: &str, body: &Value) -> Reply {
    post_raw(pool, uri, "application/json", &body.to_string()).await
}

/// A request with an optional bearer token and JSON body.
pub async fn call(
    pool: &PgPool,
    method: &str,
    uri: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> Reply {
    let mut builder = Request::builder().method(method).uri(uri);
    if let Some(token) = token {
        builder = builder.header("authorization", format!("Bearer {token}"));
    }
    let request = match body {
        Some(body) => builder
            .header("content-type", "application/json")
            .body(Body::from(body.to_string())),
        None => builder.body(Body::empty()),
    }
    .expect("request");
    send(pool, request).await
}

/// Creates a user with `role` and returns a bearer token for it.
pub async fn token_for(pool: &PgPool, username: &str, role: &str) -> String {
    arbiter::service::users::create_user(pool, username, "a long password", role)
        .await
        .expect("user");
    arbiter::service::users::login(pool, username, "a long password", "api")
        .await
        .expect("login")
}

/// An admin's token.
pub async fn admin_token(pool: &PgPool) -> String {
    token_for(pool, "chief", "admin").await
}

/// Asserts the status and returns the JSON body.
#[track_caller]
pub fn expect(reply: &Reply, status: StatusCode) -> Value {
    assert_eq!(
        reply.status, status,
        "unexpected status; body: {}",
        reply.text
    );
    reply.json()
}

/// Creates a tournament and a section with `settings` (merged over name and rounds), returns
/// (tournament id, section id).
pub async fn tournament_with_section(
    pool: &PgPool,
    token: &str,
    game: &str,
    settings: Value,
) -> (String, String) {
    let t = expect(
        &call(
            pool,
            "POST",
            "/api/v1/tournaments",
            Some(token),
            Some(serde_json::json!({"name": "Open", "game": game})),
        )
        .await,
        StatusCode::CREATED,
    );
    let tid = t["id"].as_str().unwrap().to_string();
    let mut body = serde_json::json!({"name": "A", "rounds": 5});
    if let (Some(body), Some(settings)) = (body.as_object_mut(), settings.as_object()) {
        for (k, v) in settings {
            body.insert(k.clone(), v.clone());
        }
    }
    let s = expect(
        &call(
            pool,
            "POST",
            &format!("/api/v1/tournaments/{tid}/sections"),
            Some(token),
            Some(body),
        )
        .await,
        StatusCode::CREATED,
    );
    (tid, s["id"].as_str().unwrap().to_string())
}

/// Adds `n` individual entrants named P1…Pn with descending ratings; returns their ids.
pub async fn add_entrants(pool: &PgPool, token: &str, section: &str, n: usize) -> Vec<String> {
    let mut ids = Vec::new();
    for i in 1..=n {
        let body = serde_json::json!({"name": format!("P{i}"), "rating": 2000 - i as i64, "email": format!("p{i}@example.org")});
        let e = expect(
            &call(
                pool,
                "POST",
                &format!("/api/v1/sections/{section}/entrants"),
                Some(token),
                Some(body),
            )
            .await,
            StatusCode::CREATED,
        );
        ids.push(e["id"].as_str().unwrap().to_string());
    }
    ids
}

/// A minimal browser: keeps the cookies the server sets and sends them back.
pub struct Browser {
    pub pool: PgPool,
    pub cookies: BTreeMap<String, String>,
    pub accept_language: Option<String>,
}

impl Browser {
    pub fn new(pool: &PgPool) -> Browser {
        Browser {
            pool: pool.clone(),
            cookies: BTreeMap::new(),
            accept_language: None,
        }
    }

    pub fn cookie_header(&self) -> String {
        self.cookies
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join("; ")
    }

    pub fn absorb(&mut self, reply: &Reply) {
        for value in reply.headers.get_all("set-cookie") {
            let value = value.to_str().unwrap();
            let (pair, attributes) = value.split_once(';').unwrap_or((value, ""));
            let (name, v) = pair.split_once('=').unwrap();
            if attributes.contains("Max-Age=0") {
                self.cookies.remove(name);
            } else {
                self.cookies.insert(name.to_string(), v.to_string());
            }
        }
    }

    pub async fn get(&mut self, uri: &str) -> Reply {
        let mut request = Request::get(uri).header("cookie", self.cookie_header());
        if let Some(accept) = &self.accept_language {
            request = request.header("accept-language", accept);
        }
        let reply = send(&self.pool, request.body(Body::empty()).unwrap()).await;
        self.absorb(&reply);
        reply
    }

    pub async fn post_form(&mut self, uri: &str, fields: &[(&str, &str)]) -> Reply {
        let body = serde_urlencoded::to_string(fields).unwrap();
        let request = Request::post(uri)
            .header("cookie", self.cookie_header())
            .header("content-type", "application/x-www-form-urlencoded")
            .body(Body::from(body))
            .unwrap();
        let reply = send(&self.pool, request).await;
        self.absorb(&reply);
        reply
    }

    /// Posts a `multipart/form-data` form: text fields, then a file part when given
    /// (field name, file name, content).
    pub async fn post_multipart(
        &mut self,
        uri: &str,
        fields: &[(&str, &str)],
        file: Option<(&str, &str, &[u8])>,
    ) -> Reply {
        const BOUNDARY: &str = "----arbiter-test-boundary-7d1f";
        let mut body: Vec<u8> = Vec::new();
        for (name, value) in fields {
            body.extend_from_slice(
                format!("--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n")
                    .as_bytes(),
            );
        }
        if let Some((name, file_name, content)) = file {
            body.extend_from_slice(
                format!("--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{name}\"; filename=\"{file_name}\"\r\nContent-Type: application/octet-stream\r\n\r\n")
                    .as_bytes(),
            );
            body.extend_from_slice(content);
            body.extend_from_slice(b"\r\n");
        }
        body.extend_from_slice(format!("--{BOUNDARY}--\r\n").as_bytes());
        let request = Request::post(uri)
            .header("cookie", self.cookie_header())
            .header(
                "content-type",
                format!("multipart/form-data; boundary={BOUNDARY}"),
            )
            .body(Body::from(body))
            .unwrap();
        let reply = send(&self.pool, request).await;
        self.absorb(&reply);
        reply
    }

    /// Logs in through the form; panics unless it succeeds.
    pub async fn log_in(&mut self, username: &str, password: &str) {
        let form = self.get("/login").await;
        let csrf = csrf_of(&form.text);
        let reply = self
            .post_form(
                "/login",
                &[
                    ("csrf", &csrf),
                    ("username", username),
                    ("password", password),
                ],
            )
            .await;
        assert_eq!(reply.status, StatusCode::SEE_OTHER, "{}", reply.text);
    }
}

/// The CSRF token of the first form on a page.
pub fn csrf_of(html: &str) -> String {
    let start = html
        .find(r#"name="csrf" value=""#)
        .unwrap_or_else(|| panic!("no csrf field in {html}"))
        + r#"name="csrf" value=""#.len();
    html[start..].split('"').next().unwrap().to_string()
}

pub fn location(reply: &Reply) -> &str {
    reply.headers.get("location").unwrap().to_str().unwrap()
}

/// Decides every tie the chain leaves in a section, keeping the chain's (starting-number)
/// order, as an arbiter does before prizes when the rules say "the lower number first".
pub async fn keep_tied_order(pool: &PgPool, token: &str, section: &str) {
    let ties = expect(
        &get(pool, &format!("/api/v1/sections/{section}/ties")).await,
        StatusCode::OK,
    );
    for group in ties.as_array().unwrap() {
        let order: Vec<Value> = group["entrants"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["entrant_id"].clone())
            .collect();
        expect(
            &call(
                pool,
                "POST",
                &format!("/api/v1/sections/{section}/ties"),
                Some(token),
                Some(serde_json::json!({"method": "manual", "entrants": order})),
            )
            .await,
            StatusCode::OK,
        );
    }
}

/// `call` that must succeed; its JSON (`null` for an empty body).
pub async fn api(
    pool: &PgPool,
    token: &str,
    method: &str,
    uri: &str,
    body: Option<Value>,
) -> Value {
    let reply = call(pool, method, uri, Some(token), body).await;
    assert!(reply.status.is_success(), "{method} {uri}: {}", reply.text);
    if reply.text.is_empty() {
        Value::Null
    } else {
        reply.json()
    }
}

/// Posts a form of `page` (read first for its CSRF token) to `action`.
pub async fn submit(
    browser: &mut Browser,
    page: &str,
    action: &str,
    fields: &[(&str, &str)],
) -> Reply {
    let html = browser.get(page).await;
    assert_eq!(html.status, StatusCode::OK, "{}", html.text);
    let csrf = csrf_of(&html.text);
    let mut all = vec![("csrf", csrf.as_str())];
    all.extend_from_slice(fields);
    browser.post_form(action, &all).await
}

/// The password of every account the tests make.
pub const PASSWORD: &str = "a long password";

/// An admin's API token and a browser signed in as the same admin (`chief`).
pub async fn admin_browser(pool: &PgPool) -> (String, Browser) {
    let token = token_for(pool, "chief", "admin").await;
    let mut browser = Browser::new(pool);
    browser.log_in("chief", PASSWORD).await;
    (token, browser)
}

/// Publishes round `n` of `section` (results are taken once it is: issue #35).
pub async fn publish(pool: &PgPool, token: &str, section: &str, n: i64) {
    expect(
        &call(
            pool,
            "POST",
            &format!("/api/v1/sections/{section}/rounds/{n}/publish"),
            Some(token),
            None,
        )
        .await,
        StatusCode::OK,
    );
}

/// The one way the tests play a Swiss round through the API: pairs the section's next round
/// and enters `result(board)` on every board with two players; returns the round as paired.
pub async fn play_round(
    pool: &PgPool,
    token: &str,
    section: &str,
    result: impl Fn(&Value) -> &'static str,
) -> Value {
    play_round_with(
        pool,
        token,
        section,
        |board| serde_json::json!({"result": result(board)}),
    )
    .await
    .0
}

/// [`play_round`] with the whole body of each result (fouls too) from `body(board)`; returns
/// the round as paired and each board's answer (`converted` says the foul rule applied).
pub async fn play_round_with(
    pool: &PgPool,
    token: &str,
    section: &str,
    mut body: impl FnMut(&Value) -> Value,
) -> (Value, Vec<Value>) {
    let mut outcomes = Vec::new();
    let round = expect(
        &call(
            pool,
            "POST",
            &format!("/api/v1/sections/{section}/rounds"),
            Some(token),
            None,
        )
        .await,
        StatusCode::CREATED,
    );
    // Results are taken once the round is published (issue #35).
    publish(
        pool,
        token,
        section,
        round["number"].as_i64().expect("number"),
    )
    .await;
    for board in round["boards"]
        .as_array()
        .expect("boards")
        .iter()
        .filter(|b| !b["black"].is_null())
    {
        let id = board["id"].as_str().expect("board id");
        outcomes.push(expect(
            &call(
                pool,
                "PUT",
                &format!("/api/v1/boards/{id}/result"),
                Some(token),
                Some(body(board)),
            )
            .await,
            StatusCode::OK,
        ));
    }
    (round, outcomes)
}

/// A result for [`play_round`]: the lower starting number wins, so standings are predictable.
pub fn lower_number_wins(board: &Value) -> &'static str {
    if board["red"]["start_no"].as_i64() < board["black"]["start_no"].as_i64() {
        "red_wins"
    } else {
        "black_wins"
    }
}

/// A tournament's id as the API gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TournamentId(pub String);

/// A section's id as the API gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SectionId(pub String);

/// An entrant's id as the API gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntrantId(pub String);

impl std::fmt::Display for TournamentId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::fmt::Display for SectionId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::fmt::Display for EntrantId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The JSON API as one signed-in user calls it: each call asserts the status it expects.
#[derive(Clone)]
pub struct Client {
    pool: PgPool,
    /// The bearer token.
    pub token: String,
}

impl Client {
    /// An admin (`chief`) of a new database.
    pub async fn admin(pool: &PgPool) -> Client {
        Client {
            pool: pool.clone(),
            token: admin_token(pool).await,
        }
    }

    /// A call whatever its answer.
    pub async fn send(&self, method: &str, uri: &str, body: Option<Value>) -> Reply {
        call(&self.pool, method, uri, Some(&self.token), body).await
    }

    /// A call that must answer `status`; its JSON.
    pub async fn expect(
        &self,
        status: StatusCode,
        method: &str,
        uri: &str,
        body: Option<Value>,
    ) -> Value {
        expect(&self.send(method, uri, body).await, status)
    }

    /// `GET uri`, 200.
    pub async fn get(&self, uri: &str) -> Value {
        self.expect(StatusCode::OK, "GET", uri, None).await
    }
}

/// How [`Event`] plays its rounds.
type Outcome = fn(&Value) -> &'static str;

/// A tournament made through the API for a test: `Event::new(&pool).section(json!({…}))
/// .entrants(8).play(3, lower_number_wins).await` makes the tournament, each section with
/// its settings merged over name "A" and 5 rounds, `n` entrants P1…Pn in each (ratings
/// descending), and plays the rounds in each section.
pub struct Event {
    pool: PgPool,
    game: &'static str,
    sections: Vec<Value>,
    entrants: usize,
    rounds: usize,
    outcome: Outcome,
}

/// What [`Event`] made.
pub struct Made {
    /// The admin who made it.
    pub client: Client,
    /// The tournament.
    pub tournament: TournamentId,
    /// Its sections, in the order given.
    pub sections: Vec<SectionId>,
    /// Each section's entrants, by starting order.
    pub entrants: Vec<Vec<EntrantId>>,
}

impl Event {
    /// A Xiangqi tournament with nothing in it yet.
    pub fn new(pool: &PgPool) -> Event {
        Event {
            pool: pool.clone(),
            game: "xiangqi",
            sections: Vec::new(),
            entrants: 0,
            rounds: 0,
            outcome: lower_number_wins,
        }
    }

    /// The game (`xiangqi`, `jieqi`, `banqi`).
    pub fn game(mut self, game: &'static str) -> Event {
        self.game = game;
        self
    }

    /// A section with these settings (over name "A" and 5 rounds).
    pub fn section(mut self, settings: Value) -> Event {
        self.sections.push(settings);
        self
    }

    /// `n` entrants in each section.
    pub fn entrants(mut self, n: usize) -> Event {
        self.entrants = n;
        self
    }

    /// `rounds` rounds played in each section, each board's result from `outcome`.
    pub fn play(mut self, rounds: usize, outcome: Outcome) -> Event {
        self.rounds = rounds;
        self.outcome = outcome;
        self
    }

    async fn make(self) -> Made {
        let client = Client::admin(&self.pool).await;
        let tournament = client
            .expect(
                StatusCode::CREATED,
                "POST",
                "/api/v1/tournaments",
                Some(serde_json::json!({"name": "Open", "game": self.game})),
            )
            .await;
        let tournament = TournamentId(tournament["id"].as_str().expect("id").to_string());
        let specs = if self.sections.is_empty() {
            vec![serde_json::json!({})]
        } else {
            self.sections
        };
        let (mut sections, mut entrants) = (Vec::new(), Vec::new());
        for settings in specs {
            let mut body = serde_json::json!({"name": "A", "rounds": 5});
            if let (Some(body), Some(settings)) = (body.as_object_mut(), settings.as_object()) {
                body.extend(settings.clone());
            }
            let section = client
                .expect(
                    StatusCode::CREATED,
                    "POST",
                    &format!("/api/v1/tournaments/{tournament}/sections"),
                    Some(body),
                )
                .await;
            let section = SectionId(section["id"].as_str().expect("id").to_string());
            let ids = add_entrants(&self.pool, &client.token, &section.0, self.entrants).await;
            entrants.push(ids.into_iter().map(EntrantId).collect());
            sections.push(section);
        }
        for _ in 0..self.rounds {
            for section in &sections {
                play_round(&self.pool, &client.token, &section.0, self.outcome).await;
            }
        }
        Made {
            client,
            tournament,
            sections,
            entrants,
        }
    }
}

impl std::future::IntoFuture for Event {
    type Output = Made;
    type IntoFuture = std::pin::Pin<Box<dyn std::future::Future<Output = Made> + Send>>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.make())
    }
}
