//! The stick/slip mode machine shared by slide, roll and spin, and the onset hold.

use super::*;

/// The adapter's one stick/slip detector, shared by slide, roll and spin. While `Static` and
/// `loaded`, the stick deflection advances by `accumulate(deflection) -> (new, size)`; when its
/// size exceeds `threshold` the mechanism turns `Kinetic`, if `bound_reached` (the friction or
/// motor row reached its bound in the step: see `after`'s `bounds_reached`); else the deflection
/// stays where it was (the constraint held: what moved is the solver's creep, not a slip). A
/// `Kinetic` mechanism returns to
/// `Static` once `settled` (its relative velocity is below the slip tolerance). The deflection is
/// reset on every switch and whenever a static mechanism is unloaded.
#[inline]
pub(super) fn advance_mode<D: Copy + Default>(
    mode: &mut Mode,
    deflection: &mut D,
    loaded: bool,
    threshold: f64,
    settled: bool,
    bound_reached: bool,
    accumulate: impl FnOnce(D) -> (D, f64),
) {
    match *mode {
        Mode::Static if loaded => {
            let (next, size) = accumulate(*deflection);
            if size <= threshold {
                *deflection = next;
            } else if bound_reached {
                *mode = Mode::Kinetic;
                *deflection = D::default();
            }
        }
        Mode::Static => *deflection = D::default(),
        Mode::Kinetic if settled => {
            *mode = Mode::Static;
            *deflection = D::default();
        }
        Mode::Kinetic => {}
    }
}

/// The onset hold of a roll, spin or slide mechanism (`bit` of `hold`). Roll and spin
/// resistance act through the contact's motor joint, which exists only from the contact's
/// second step: in its first step nothing resists the relative rotation, and a body set down at
/// rest within its static capacity (a ball on a gentle slope) starts to turn. Slide friction
/// acts from the first step, but its bound grows with rapier's (soft) normal force over that
/// step: a brick set down on a slope within μs slides a little first. While held, the
/// mechanism stays static and its deflection accumulates from the first step (so the anchor
/// pull-back returns the body to where it was set down), without the stick → slip test: the
/// static motor (the friction, for slide) decelerates the motion and pulls the deflection
/// back. The hold ends
/// * in slip (kinetic) when the deflection grows past the first step's by more than the static
///   threshold: the static capacity cannot hold the load;
/// * in ordinary stick when the rotation has stopped and the deflection is back within
///   `release` (roll and spin: the static threshold; slide: one step at the slip speed, at
///   most half the static threshold);
/// * at once when the contact is unloaded or the mechanism is off.
///
/// Contacts that began with the bodies already turning relative to each other are not held in
/// roll and spin, nor those that began sliding (or on a conveyor surface) in slide.
/// Returns whether the hold handled this step (else [`advance_mode`] does).
#[allow(clippy::too_many_arguments)]
pub(super) fn hold_step<D: Copy + Default>(
    hold: &mut u8,
    bit: u8,
    onset_size: &mut f32,
    first_step: bool,
    (mode, deflection): (&mut Mode, &mut D),
    loaded: bool,
    (threshold, release): (f64, f64),
    (speed, settle_speed): (f32, f32),
    accumulate: impl FnOnce(D) -> (D, f64),
) -> bool {
    if *hold & bit == 0 {
        return false;
    }
    if !loaded {
        *hold &= !bit;
        return false;
    }
    let (next, size) = accumulate(*deflection);
    *deflection = next;
    if first_step {
        *onset_size = size as f32;
    } else if size > *onset_size as f64 + threshold {
        // Turned on past the first step's deflection by more than the static threshold.
        *hold &= !bit;
        *mode = Mode::Kinetic;
        *deflection = D::default();
    } else if speed <= settle_speed && size <= release {
        *hold &= !bit;
    }
    true
}

impl TriboRapier {
    /// Turns the sticking slide of the contact between `c1` and `c2` (either order) kinetic
    /// from now, for a decision made outside the stick/slip machine: the two-contact monitor's
    /// verdict that two-point rolling is not realizable (docs/realizability.md §9.2). The same
    /// switch as the machine's own (deflection reset, no onset hold), and the contact's plan
    /// for the next step with it: μk, no anchor pull-back (a Contensou contact's coefficient
    /// is planned by `before_step` from its mode). Returns whether the slide was static.
    pub(crate) fn slide_to_kinetic(&mut self, c1: ColliderHandle, c2: ColliderHandle) -> bool {
        let Some(&i) =
            self.contacts.index.get(&key(c1, c2)).or_else(|| self.contacts.index.get(&key(c2, c1)))
        else {
            return false;
        };
        let (s, plan) = (&mut self.contacts.states[i as usize], &mut self.contacts.plans[i as usize]);
        if s.slide != Mode::Static || plan.stock {
            return false;
        }
        s.slide = Mode::Kinetic;
        s.slide_defl = Vector::ZERO;
        s.hold &= !HOLD_SLIDE;
        s.roll_fix = Vector::ZERO;
        // Back on the hook, which writes μk (see `settle`).
        s.settled = false;
        if s.contensou_model.is_none() {
            plan.mu = s.material.mu_k() as f32;
            plan.tangent_velocity = Vector::ZERO;
        }
        true
    }
}
