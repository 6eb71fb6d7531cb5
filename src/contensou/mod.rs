//! contensou (work in progress).

/// Validation rows of this module's experiments (filled by the experiments).
pub fn validation_rows() -> Vec<crate::validation::Row> {
    Vec::new()
}
