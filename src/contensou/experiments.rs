//! placeholder
/// rows
pub fn validation_rows() -> Vec<crate::validation::Row> { Vec::new() }
