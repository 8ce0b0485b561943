//! What the blossom algorithm reads of a graph: rows of edges per vertex, the ends of an edge
//! and its doubled weight. Two layouts implement it: [`super::dense::Dense`] (an `n × n`
//! table, every pair a slot) and [`super::sparse::Edges`] (adjacency lists over an edge
//! array). The solver is generic over it and monomorphised for each, so its hot loops make
//! no dynamic calls.

use super::MatchWeight;

/// One edge as seen from one of its ends, `v`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Arc {
    /// The other end.
    pub to: usize,
    /// The endpoint at `to` (the solver names a directed edge by the end it leads to).
    pub p: usize,
    /// The edge's index for per-edge marks, the same from both ends (below
    /// [`Graph::edge_slots`]).
    pub edge: usize,
    /// Where its doubled weight is read ([`Graph::weight`], [`Graph::approx`]).
    pub key: usize,
}

/// A graph the solver can run on. Endpoints are the layout's own numbers; the solver only
/// compares them, flips them and asks where they are.
pub(crate) trait Graph<W: MatchWeight> {
    /// The number of slots in `v`'s row ([`Graph::arc`] takes `0..slots(v)`).
    fn slots(&self, v: usize) -> usize;
    /// The live edge in slot `i` of `v`'s row, if any. Rows are read in slot order, and that
    /// order breaks ties between optima.
    fn arc(&self, v: usize, i: usize) -> Option<Arc>;
    /// The vertex at endpoint `p`.
    fn endpoint(&self, p: usize) -> usize;
    /// The other end of `p`'s edge.
    fn flip(&self, p: usize) -> usize;
    /// The endpoint at the first end of `p`'s edge (the end its caller named first).
    fn first_end(&self, p: usize) -> usize;
    /// `p`'s edge index (see [`Arc::edge`]).
    fn edge(&self, p: usize) -> usize;
    /// How many edge indices there are.
    fn edge_slots(&self) -> usize;
    /// The doubled weight of `p`'s edge.
    fn w2(&self, p: usize) -> W;
    /// The doubled weight at `key` (see [`Arc::key`]).
    fn weight(&self, key: usize) -> W;
    /// `weight(key).approx(shift)`, `i64::MIN` when out of range or unknown.
    fn approx(&self, key: usize) -> i64;
    /// How many distinct weight keys there are when they are few (a table of distinct
    /// weights, see [`Arc::key`]), so that the solver may cache a value per key; `None`
    /// when keys are per edge.
    fn few_keys(&self) -> Option<usize> {
        None
    }
}
