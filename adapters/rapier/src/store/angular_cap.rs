//! rapier's angular speed cap on tribo's bodies.
//!
//! rapier clamps every body's angular speed, in each substep, to `(π/4)/dt` (47 rad/s at
//! dt = 1/60) unless `RigidBody::set_allow_fast_rotation(true)`: the cap keeps its continuous
//! collision detection reliable. A rolling body reaches it early: a billiard ball (radius
//! 28.6 mm) rolling at 1.4 m/s turns at 49 rad/s, a golf ball putted at 2 m/s at 93 rad/s.
//! Capped, such a ball rolls with its spin held below its speed, and its contact slides.
//!
//! With [`Settings::allow_fast_rotation`] (the default) the store lifts the cap on the dynamic
//! bodies of colliders given a material and of every body in a tribo contact, when the
//! material is set and when the contact begins. A tribo body held at the cap (the setting off,
//! or the user's `set_allow_fast_rotation(false)` afterwards) is reported once as
//! [`Diagnostic::AngularSpeedCapped`].

use super::*;

/// The fraction of rapier's cap `(π/4)/dt` at which a body counts as held at it.
const AT_CAP: f32 = 0.999;

impl TriboRapier {
    /// Lifts rapier's angular speed cap on the bodies noted since the last call (see the module
    /// docs), unless [`Settings::allow_fast_rotation`] is off.
    pub(super) fn lift_angular_caps(&mut self, bodies: &mut RigidBodySet) {
        let pending = std::mem::take(&mut self.lift_cap);
        if !self.settings.allow_fast_rotation {
            return;
        }
        for h in pending {
            if let Some(rb) = bodies.get_mut(h) {
                if rb.is_dynamic() && !rb.is_fast_rotation_allowed() {
                    rb.set_allow_fast_rotation(true);
                }
            }
        }
    }

    /// Puts the cap back on the bodies of tribo's contacts for a step without a finite positive
    /// time step (see `before_step`); the next valid step lifts it again.
    pub(super) fn cap_for_bad_step(&mut self, bodies: &mut RigidBodySet) {
        let parents: Vec<RigidBodyHandle> =
            self.contacts.states.iter().flat_map(|s| s.parents).flatten().collect();
        for h in parents {
            if let Some(rb) = bodies.get_mut(h).filter(|rb| rb.is_dynamic() && rb.is_fast_rotation_allowed())
            {
                rb.set_allow_fast_rotation(false);
                self.note_turning_body(Some(h));
            }
        }
    }

    /// Notes a body whose cap the next `before_step` lifts (a body may be noted several times).
    pub(super) fn note_turning_body(&mut self, body: Option<RigidBodyHandle>) {
        if let Some(h) = body {
            self.lift_cap.push(h);
        }
    }

    /// Reports once each body `after_step` found at rapier's angular speed cap.
    pub(super) fn report_capped(&mut self, capped: Vec<RigidBodyHandle>) {
        for body in capped {
            self.report_once(Diagnostic::AngularSpeedCapped { body });
        }
    }
}

/// Whether a body turning at `angvel` in a step of `dt` is at rapier's angular speed cap, the cap
/// not lifted on it (`allowed`).
#[inline]
pub(super) fn at_cap(angvel: Vector, dt: f32, allowed: bool) -> bool {
    let cap = AT_CAP * std::f32::consts::FRAC_PI_4;
    !allowed && dt > 0.0 && angvel.length_squared() * dt * dt >= cap * cap
}
