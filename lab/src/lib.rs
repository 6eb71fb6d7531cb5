//! # tribo_lab — tribo's laboratory (not published)
//!
//! Everything that checks tribo against the papers and against analytic solutions, kept out
//! of the published crates:
//!
//! * [`validation`] — the row type ([`validation::Row`]) printed by the `validate` binary.
//! * [`tracking`] — the reference integrator of the contact-point tracking experiments, the
//!   experiments T1–T8 of `docs/tracking.md` §7, the legacy baselines and their rows.
//! * [`contensou`] — the Contensou test problems (`docs/contensou.md`), reference ODE
//!   integrators, their rows and the `contensou --stdin` line evaluator.
//! * [`realizability`] — the ball-in-a-trough closed forms (`docs/realizability.md` §4), their
//!   rows and the `trough --stdin` line evaluator.
//! * [`rapier`] — rapier test scenes (tribo vs stock), the trough scene and their rows.
//! * [`report`] — the HTML report with SVG plots written by `validate --report DIR`.
//!
//! Binaries: `validate` (the main job: every row in one table, `--json` for JSON rows),
//! `contensou`, `trough`, `compare_stock`, `ball_in_trough`, `pile_timing`.

pub mod contensou;
pub mod rapier;
pub mod realizability;
pub mod report;
pub mod tracking;
pub mod validation;
