//! Tests of the page cache.
use super::*;

#[test]
fn if_none_match_accepts_lists_weak_tags_and_star() {
    let mut headers = HeaderMap::new();
    assert!(!if_none_match(&headers, "\"abc\""));
    headers.insert(IF_NONE_MATCH, HeaderValue::from_static("\"x\", W/\"abc\""));
    assert!(if_none_match(&headers, "\"abc\""));
    assert!(!if_none_match(&headers, "\"ab\""));
    headers.insert(IF_NONE_MATCH, HeaderValue::from_static("*"));
    assert!(if_none_match(&headers, "\"anything\""));
}

#[test]
fn gzip_is_taken_unless_refused() {
    let with = |value: &'static str| {
        let mut headers = HeaderMap::new();
        headers.insert(ACCEPT_ENCODING, HeaderValue::from_static(value));
        accepts_gzip(&headers)
    };
    assert!(with("gzip, deflate, br"));
    assert!(with("br;q=1.0, GZIP;q=0.5"));
    assert!(with("*"));
    assert!(!with("gzip;q=0"));
    assert!(!with("br"));
    assert!(!accepts_gzip(&HeaderMap::new()));
    assert_eq!(gzip_tag("\"abc\""), "\"abc-gz\"");
}

#[test]
fn tags_differ_by_every_part() {
    let section = Uuid::new_v4();
    let a = tag(section, Some(1), [Some("a"), None]);
    assert_eq!(a, tag(section, Some(1), [Some("a"), None]));
    assert_ne!(a, tag(section, Some(2), [Some("a"), None]));
    assert_ne!(a, tag(section, Some(1), [Some("a"), Some("")]));
    assert_ne!(a, tag(section, Some(1), [Some("a")]));
    assert_ne!(a, tag(Uuid::new_v4(), Some(1), [Some("a"), None]));
}

#[tokio::test]
async fn a_version_is_read_once_until_forgotten() {
    let cache = LiveCache::default();
    let section = Uuid::new_v4();
    let mut reads = 0;
    for _ in 0..3 {
        let v = cache
            .version(section, || {
                reads += 1;
                async { Ok::<_, ()>(Some(7)) }
            })
            .await;
        assert_eq!(v, Ok(Some(7)));
    }
    assert_eq!(reads, 1);
    cache.forget_versions();
    let v = cache
        .version(section, || async { Ok::<_, ()>(Some(8)) })
        .await;
    assert_eq!(v, Ok(Some(8)));
}

#[tokio::test]
async fn one_render_serves_every_waiter() {
    let cache = Arc::new(LiveCache::default());
    let guard = match cache.lookup("k").await {
        Lookup::Render(guard) => guard,
        _ => panic!("nothing rendered yet"),
    };
    let waiter = {
        let cache = cache.clone();
        tokio::spawn(async move {
            match cache.lookup("k").await {
                Lookup::Serve(latest) => Some(latest.body.clone()),
                _ => None,
            }
        })
    };
    tokio::time::sleep(Duration::from_millis(20)).await;
    let body = Body::new(Bytes::from_static(b"<p>page</p>"));
    guard.keep(&cache, "\"t\"".into(), Some(1), body, Instant::now());
    let got = waiter.await.unwrap().expect("the body rendered once");
    assert_eq!(&got.identity[..], b"<p>page</p>");
    let mut html = String::new();
    std::io::Read::read_to_string(
        &mut flate2::read::GzDecoder::new(&got.gzip()[..]),
        &mut html,
    )
    .unwrap();
    assert_eq!(html, "<p>page</p>");
    assert!(matches!(cache.lookup("k").await, Lookup::Serve(_)));
    assert_eq!(cache.renders(), 1);
}

#[tokio::test]
async fn one_request_per_interval_checks_the_others_get_the_last_body() {
    let cache = LiveCache::default();
    let long_ago = Instant::now() - REFRESH * 2;
    let body = || Body::new(Bytes::from_static(b"<p>page</p>"));
    cache.keep("k", "\"v1\"".into(), Some(1), body(), long_ago);
    // The interval is over: one request takes the turn, every other serves the body.
    let mut checks = 0;
    for _ in 0..100 {
        if let Lookup::Check(..) = cache.lookup("k").await {
            checks += 1;
        }
    }
    assert_eq!(checks, 1);
    // A newer body replaces it; an older one (a slow render) does not.
    let newer = cache.keep("k", "\"v3\"".into(), Some(3), body(), Instant::now());
    assert_eq!(newer.tag, "\"v3\"");
    let kept = cache.keep("k", "\"v2\"".into(), Some(2), body(), Instant::now());
    assert_eq!(kept.tag, "\"v3\"");
    match cache.lookup("k").await {
        Lookup::Serve(latest) => assert_eq!(latest.tag, "\"v3\""),
        _ => panic!("checked less than an interval ago"),
    }
    assert_eq!(cache.renders(), 3);
}
