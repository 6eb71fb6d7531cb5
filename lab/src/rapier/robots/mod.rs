//! Robots loaded from URDF files (`lab/robots/`) with tribo_rapier's loader
//! ([`tribo_rapier::urdf`], on `rapier3d-urdf`): a parallel-jaw
//! gripper ([`gripper`]) and a differential-drive robot ([`drive`]), on rapier's impulse joints
//! and on its multibody joints, against the mechanics of grips, coasting, turning in place and
//! parking; the `robot …` validation rows in [`rows`]. Built with the `rapier-0-36` feature
//! (`rapier3d-urdf` follows rapier 0.36). Model notes and measured tables: `docs/robots.md`.

pub mod drive;
pub mod gripper;
pub mod rows;
