//! `/metrics` in the Prometheus text format (issue #17), so the usual monitoring stacks
//! (Prometheus, Grafana Agent, VictoriaMetrics) can scrape a server: requests and their
//! latency by route, the database pool, the time pairings take and the desk's queues.
//!
//! The metrics are the process's own (one registry per process, shared by every router built
//! in it); the pool and queue gauges are read when scraped. Routes are labelled by their
//! template (`/s/{section_id}/standings`), never by a concrete path, so the label set stays
//! small and nothing private appears.

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{exponential_buckets, Histogram};
use prometheus_client::registry::Registry;
use std::sync::LazyLock;
use std::time::Duration;

/// A request's route and outcome.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct RequestLabels {
    /// `GET`, `POST`, …
    pub method: String,
    /// The route's template, or `unmatched`.
    pub route: String,
    /// The status code.
    pub status: String,
}

/// A request's route.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct RouteLabels {
    /// `GET`, `POST`, …
    pub method: String,
    /// The route's template, or `unmatched`.
    pub route: String,
}

/// A pairing system.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct SystemLabels {
    /// `dutch`, `chinese`, `round_robin`.
    pub system: String,
}

/// A gauge read when scraped.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct StateLabels {
    /// `idle` or `in_use` (connections).
    pub state: String,
}

/// The process's metrics.
pub struct Metrics {
    registry: Registry,
    requests: Family<RequestLabels, Counter>,
    latency: Family<RouteLabels, Histogram, fn() -> Histogram>,
    pairing: Family<SystemLabels, Histogram, fn() -> Histogram>,
    pool: Family<StateLabels, Gauge>,
    pool_max: Gauge,
    reports_pending: Gauge,
    live_renders: Counter,
}

fn latency_histogram() -> Histogram {
    // 0.25 ms to about 8 s.
    Histogram::new(exponential_buckets(0.000_25, 2.0, 16))
}

fn pairing_histogram() -> Histogram {
    // 1 ms to about 65 s.
    Histogram::new(exponential_buckets(0.001, 2.0, 17))
}

impl Metrics {
    fn new() -> Metrics {
        let mut registry = Registry::with_prefix("arbiter");
        let requests = Family::<RequestLabels, Counter>::default();
        registry.register(
            "http_requests",
            "HTTP requests answered, by method, route template and status",
            requests.clone(),
        );
        let latency: Family<RouteLabels, Histogram, fn() -> Histogram> =
            Family::new_with_constructor(latency_histogram);
        registry.register(
            "http_request_duration_seconds",
            "Time to answer an HTTP request, by method and route template",
            latency.clone(),
        );
        let pairing: Family<SystemLabels, Histogram, fn() -> Histogram> =
            Family::new_with_constructor(pairing_histogram);
        registry.register(
            "pairing_duration_seconds",
            "Time the pairing engine took to pair a round, by system",
            pairing.clone(),
        );
        let pool = Family::<StateLabels, Gauge>::default();
        registry.register(
            "db_pool_connections",
            "Database connections of the pool, by state",
            pool.clone(),
        );
        let pool_max = Gauge::default();
        registry.register(
            "db_pool_max_connections",
            "The pool's largest size",
            pool_max.clone(),
        );
        let reports_pending = Gauge::default();
        registry.register(
            "reports_pending",
            "Players' result reports waiting at the desks (all tournaments)",
            reports_pending.clone(),
        );
        let live_renders = Counter::default();
        registry.register(
            "live_page_renders",
            "Live pages rendered for anonymous visitors (at most one per page and second while results arrive)",
            live_renders.clone(),
        );
        Metrics {
            registry,
            requests,
            latency,
            pairing,
            pool,
            pool_max,
            reports_pending,
            live_renders,
        }
    }

    /// Counts one render of a live page kept for anonymous visitors.
    pub fn live_rendered(&self) {
        self.live_renders.inc();
    }

    /// Counts an answered request. `method` is put in its bounded set ([`method_label`]),
    /// `route` must be a route template or `unmatched` (never a path a client chose).
    pub fn request(&self, method: &str, route: &str, status: u16, took: Duration) {
        let method = method_label(method);
        self.requests
            .get_or_create(&RequestLabels {
                method: method.to_string(),
                route: route.to_string(),
                status: status.to_string(),
            })
            .inc();
        self.latency
            .get_or_create(&RouteLabels {
                method: method.to_string(),
                route: route.to_string(),
            })
            .observe(took.as_secs_f64());
    }

    /// Records the time of one pairing.
    pub fn paired(&self, system: &str, took: Duration) {
        self.pairing
            .get_or_create(&SystemLabels {
                system: system.to_string(),
            })
            .observe(took.as_secs_f64());
    }

    /// Sets the gauges read at scrape time.
    pub fn set_pool(&self, size: u32, idle: usize, max: u32) {
        let idle = i64::try_from(idle).unwrap_or(i64::MAX);
        let size = i64::from(size);
        self.pool
            .get_or_create(&StateLabels {
                state: "idle".into(),
            })
            .set(idle);
        self.pool
            .get_or_create(&StateLabels {
                state: "in_use".into(),
            })
            .set((size - idle).max(0));
        self.pool_max.set(i64::from(max));
    }

    /// Sets the number of reports waiting.
    pub fn set_reports_pending(&self, n: i64) {
        self.reports_pending.set(n);
    }

    /// The text exposition.
    pub fn render(&self) -> String {
        let mut out = String::new();
        // Writing into a String cannot fail.
        let _ = prometheus_client::encoding::text::encode(&mut out, &self.registry);
        out
    }
}

/// The methods counted by name; any other (a client may send any token as a method) is
/// `other`, so no client can add label values.
const METHODS: [&str; 9] = [
    "GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "CONNECT", "TRACE",
];

/// The label of a request method: itself when standard, else `other`.
pub fn method_label(method: &str) -> &'static str {
    METHODS
        .iter()
        .find(|m| **m == method)
        .copied()
        .unwrap_or("other")
}

/// The process's metrics.
pub fn metrics() -> &'static Metrics {
    static METRICS: LazyLock<Metrics> = LazyLock::new(Metrics::new);
    &METRICS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn methods_outside_the_standard_set_are_one_label() {
        assert_eq!(method_label("GET"), "GET");
        assert_eq!(method_label("PATCH"), "PATCH");
        assert_eq!(method_label("get"), "other");
        assert_eq!(method_label("FOOBAR"), "other");
        assert_eq!(method_label("PROPFIND"), "other");
    }

    #[test]
    fn the_exposition_names_every_metric() {
        let m = metrics();
        m.request(
            "GET",
            "/s/{section_id}/standings",
            200,
            Duration::from_millis(3),
        );
        m.paired("dutch", Duration::from_millis(40));
        m.set_pool(5, 3, 10);
        let text = m.render();
        for name in [
            "arbiter_http_requests_total{",
            "arbiter_http_request_duration_seconds_bucket{",
            "arbiter_pairing_duration_seconds_count{system=\"dutch\"}",
            "arbiter_db_pool_connections{state=\"in_use\"} 2",
            "arbiter_db_pool_max_connections 10",
            "arbiter_reports_pending",
        ] {
            assert!(text.contains(name), "{name} missing from\n{text}");
        }
    }
}
