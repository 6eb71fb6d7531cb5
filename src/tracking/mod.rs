//! Slide / roll / spin friction by contact-point tracking (Fang & Negrut; spec SPEC-001).

pub mod material;

pub use material::{Damping, Derived, Material, Mode, ParamError, RollOverride, SpinModel};

/// Validation rows of this module's experiments (filled by the experiments).
pub fn validation_rows() -> Vec<crate::validation::Row> {
    Vec::new()
}
