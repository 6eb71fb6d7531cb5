//! Slip/roll transitions and realizability of rolling (Antali & Stepan).
//!
//! Engine-agnostic diagnostics that decide, at one instant, whether a rigid body that rolls
//! (sticks) at its contact point(s) can keep rolling, or which slipping motion can start:
//!
//! * [`SingleContactProblem`] — one contact point on a fixed surface (\[003\], docs/realizability.md §2): the limit directions
//!   of the slipping vector field near zero slip, their attracting/repelling character and
//!   angular stability, the four generic cases I–IV, the static Coulomb check and
//!   Theorem 4 (rolling realizable ⇔ no repelling limit direction ⇔ ‖f‖ < μN); with
//!   [`SingleContactReport::evolution`], where a slip goes (the limit direction it turns to,
//!   whether it shrinks to rolling and when, docs/realizability.md §2.11).
//! * [`TwoContactProblem`] — two contact points (\[004\], docs/realizability.md §3): cases RR, RS, SR, SS; the RS/SR
//!   attracting-sliding-point checks, the limit directions of the two-point slipping field
//!   found by a closed-form-per-slice scan of the torus of friction directions, and the
//!   verdict of Definition 11 with a signed margin and the list of possible transitions.
//!
//! The ball in a right-angle trough of \[004\] §6 (docs/realizability.md §4), whose closed forms
//! check the general method, lives in the workspace's laboratory crate (`lab/`).
//!
//! Conventions (docs/realizability.md §0): position vectors go from the centre of mass `C` to the contact
//! point (`r = CP`, as in \[004\]; \[003\] uses `r_PC = −r`); contact normals are unit normals of
//! the fixed surface pointing **into** the body; all vectors are in the world frame; the
//! inertia tensor is about `C`, in world axes at the current orientation.
//!
//! # Example: a body resting in a V-shaped support
//!
//! ```
//! use glam::{DMat3, DVec3};
//! use tribo::realizability::{ContactSpec, Transition, TwoContactProblem};
//!
//! // Ball (m = 1 kg, r = 0.1 m, J = 2/5 m r²) in a right-angle trough, μ = 0.3, with a
//! // torque about the trough axis.
//! let (m, r, g) = (1.0, 0.1, 9.81);
//! let gg = m * g / 2f64.sqrt();
//! let problem = TwoContactProblem::new(
//!     m,
//!     DMat3::IDENTITY * (0.4 * m * r * r),
//!     DVec3::ZERO,
//!     [
//!         ContactSpec::new(DVec3::new(0.0, -r, 0.0), DVec3::Y, 0.3),
//!         ContactSpec::new(DVec3::new(-r, 0.0, 0.0), DVec3::X, 0.3),
//!     ],
//!     DVec3::new(-gg, -gg, 0.0),
//!     DVec3::new(0.0, 0.0, 0.6 * gg * r),
//! );
//! let report = problem.realizability().unwrap();
//! // m_z = 0.6 exceeds m_z3 = 2μ/(1 + μ²) ≈ 0.55: both contacts start to slip.
//! assert!(!report.realizable);
//! assert_eq!(report.transitions, vec![Transition::SS]);
//! ```
//!
//! \[003\]: M. Antali, G. Stepan, *Nonsmooth analysis of three-dimensional slipping and rolling
//! in the presence of dry friction*, Nonlinear Dyn. 97 (2019) 1799–1817.
//! \[004\]: M. Antali, G. Stepan, *Slipping–rolling transitions of a body with two contact
//! points*, Nonlinear Dyn. (2021).

// `!(x > tol)` is used on purpose: it also rejects NaN.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

mod evolution;
mod linalg;
mod single;
#[cfg(test)]
mod tests_evolution;
#[cfg(test)]
mod tests_single;
mod trigpoly;
mod two;

pub use evolution::{SlipEvolution, SlipFate};
pub use single::{
    block_sticking, BilateralConstraint, Case, LimitDirection, LimitDirectionAnalysis, NonGenericKind,
    PlanarLimitField, PrincipalForm, SingleContactProblem, SingleContactReport, SlipField,
};
pub use trigpoly::{TrigPoly2, TrigRoots};
pub use two::{
    AngularType, ContactSpec, Geometry, KeptContact, LiftCheck, OneSlipCheck, Options, Report, RrInfo,
    SsInfo, SsLimitDirection, Status, Transition, TwoContactProblem,
};

use std::fmt;

/// Errors of the realizability analyses (bad input or degenerate geometry).
#[derive(Clone, Debug, PartialEq)]
pub enum RealizabilityError {
    /// A named input is NaN or infinite.
    NonFinite(&'static str),
    /// Mass is zero or negative.
    NonPositiveMass,
    /// The inertia tensor is not symmetric positive definite.
    InertiaNotSpd,
    /// A contact normal (or tangent) has (near) zero length.
    ZeroNormal,
    /// A friction coefficient is negative.
    NegativeFriction,
    /// The radius-of-curvature tensor is not symmetric positive semi-definite on the
    /// tangent plane.
    BadCurvature,
    /// Degenerate geometry (coincident contacts, chord parallel to a normal, …).
    DegenerateGeometry(&'static str),
    /// A dense linear system of the analysis is singular (Painlevé-type or degenerate).
    SingularSystem(&'static str),
    /// A parse error of the command-line line format.
    Parse(String),
}

impl fmt::Display for RealizabilityError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RealizabilityError::NonFinite(what) => write!(f, "non-finite input: {what}"),
            RealizabilityError::NonPositiveMass => write!(f, "mass must be positive"),
            RealizabilityError::InertiaNotSpd => {
                write!(f, "inertia tensor must be symmetric positive definite")
            }
            RealizabilityError::ZeroNormal => write!(f, "contact normal has zero length"),
            RealizabilityError::NegativeFriction => {
                write!(f, "friction coefficient must be non-negative")
            }
            RealizabilityError::BadCurvature => {
                write!(f, "radius-of-curvature tensor must be symmetric positive semi-definite")
            }
            RealizabilityError::DegenerateGeometry(what) => {
                write!(f, "degenerate contact geometry: {what}")
            }
            RealizabilityError::SingularSystem(what) => write!(f, "singular system: {what}"),
            RealizabilityError::Parse(what) => write!(f, "parse error: {what}"),
        }
    }
}

impl std::error::Error for RealizabilityError {}
