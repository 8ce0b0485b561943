//! arbiter binary (placeholder entry until the server lands).
fn main() {}
