//! Realizability experiments: the ball in a right-angle trough ([`trough`], closed forms of
//! `docs/realizability.md` §4 used as the analytic check of the general method), the
//! `trough --stdin` line evaluator ([`cli`]) and the validation rows.

pub mod cli;
pub mod trough;
mod validation_rows;

/// Validation rows of the realizability analyses (`docs/realizability.md` §7).
pub fn validation_rows() -> Vec<crate::validation::Row> {
    validation_rows::rows()
}
