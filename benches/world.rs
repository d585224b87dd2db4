//! World benchmarks (placeholder).
fn main() {}
