//! Contensou patch experiments (`docs/contensou.md`): the force-free disc and ball, limit
//! directions, the stick–slip belt oscillator, the accuracy table of the approximations, the
//! reference ODE integrators they use, and the `contensou --stdin` line evaluator ([`cli`]).

pub mod cli;
pub mod experiments;
mod experiments_rows;
pub mod ode;

/// Validation rows of the Contensou experiments.
pub fn validation_rows() -> Vec<crate::validation::Row> {
    experiments_rows::rows()
}
