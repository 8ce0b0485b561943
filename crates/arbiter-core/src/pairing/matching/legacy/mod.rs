//! Test-only copies of the three matchers before the unification: the new one must agree
//! with them exactly (same mates, same duals), ties included.
pub(crate) mod chinese;
pub(crate) mod dense;
pub(crate) mod sparse;
