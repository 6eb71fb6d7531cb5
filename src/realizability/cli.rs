//! Line evaluator for `examples/trough.rs` (ball in a right-angle trough, spec §4).

/// Placeholder replaced below.
pub fn eval_trough_line(_line: &str) -> String {
    String::new()
}
