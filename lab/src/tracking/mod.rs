//! Contact-point tracking experiments (`docs/tracking.md` §5.1, §7): the reference
//! integrator [`sim`], the paper's experiments T1–T7 ([`experiments`]) and the three-sphere
//! stack T8 ([`stack`]), the legacy baselines of App. A ([`legacy`]) and their validation rows.

pub mod experiments;
pub mod legacy;
mod rows;
pub mod sim;
pub mod stack;

/// Validation rows of the tracking experiments (`docs/tracking.md` §7 T1–T8).
pub fn validation_rows() -> Vec<crate::validation::Row> {
    rows::all()
}
