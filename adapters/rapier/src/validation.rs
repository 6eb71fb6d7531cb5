//! Validation rows of the rapier scenarios (filled below).

use tribo::validation::Row;

/// Runs the rapier scenarios (tribo and stock) and returns one row per checked number.
pub fn validation_rows() -> Vec<Row> {
    Vec::new()
}
