//! The per-contact pipeline of `after_step`: one moving contact, from the step rapier just
//! took to the plan of the next, stage after stage:
//!
//! 1. `observe`: the normal force, normal, point and warm start from the solver's impulses;
//!    the slip and relative turn from the bodies; curvatures, thresholds and tolerances;
//! 2. `track`: the stick/slip machines of slide, roll and spin and their onset holds;
//! 3. `roll_stop`: the stopped-roll and rolling-hold geometry of the next step's plan;
//! 4. `settle_verdict`: whether the contact is settled (its colliders may leave the hook);
//! 5. `plan`: the next step's plan, kept or made again; its motor is written through the
//!    contact's `effects` (`motor`).

use super::bodies::BodyNow;
use super::effects::{Effects, Slot, StoreView};
use super::observe::{Now, StepCtx};
use super::*;

/// One moving contact for [`update`]: its slot, its pair, the pair's record if the contact is new
/// in this step, and its bodies as read in this step.
pub(super) type ContactNow<'a> =
    (Slot<'a>, (&'a ContactPair, Option<&'a NewPair>), (&'a BodyNow, &'a BodyNow));

/// The update of one moving contact (index `idx`, pair `pair`, bodies `b1`, `b2` read in
/// this step) from the solver's impulses and the bodies' velocities after the step: normal
/// force, modes and deflections, and the next step's plan. `STEADY`: the contact is none of
/// the rarer kinds (new in this step, held after its onset, back from a step without points,
/// on a conveyor, with a Contensou model, a stock fallback, unknown curvatures, or a roll
/// that stopped in the last step), whose parts of the update are left out of this
/// instance. `SLIDE` (with `STEADY`): the contact's material has no roll or spin
/// resistance, its roll and spin are static, it has no motor and its curvatures do not
/// depend on the direction: the roll and spin parts are left out too.
#[inline(never)]
pub(super) fn update<const STEADY: bool, const SLIDE: bool, E: Effects>(
    x: &StepCtx<'_>,
    view: &StoreView<'_>,
    (mut c, (pair, new), (b1, b2)): ContactNow<'_>,
    pressing: &mut crate::slip::Pressing,
    fx: &mut E,
) {
    let (cols, parents) = {
        let s = &*c.s;
        ([s.c1, s.c2], s.parents)
    };
    let new = if STEADY { None } else { new };
    let now = Now { x, view, pair, new, b: [b1, b2], cols, parents };
    let Some(o) = super::observe::load::<STEADY, E>(&now, &mut c, fx) else { return };
    if !STEADY && c.plan.stock {
        c.s.settled = false;
        // Zero-mass fallback: back to tribo once the masses are valid (re-checked by the plan).
        if x.plan_ok {
            super::plan::replan(&mut c, view, x.colliders, parents, x.bodies, x.anchor.as_ref(), x.dt, fx);
        }
        return;
    }
    let Some(m) = super::observe::motion::<STEADY, SLIDE>(&now, c.i, c.s, &o, pressing) else { return };
    let was_rolling = super::track::track::<STEADY, SLIDE>(&now, c.s, &o, &m, fx.joints());
    super::roll_stop::plan_roll_stop::<SLIDE>(&now, c.s, c.plan, &o, &m, was_rolling);
    let was_settled = super::settle_verdict::judge::<SLIDE>(&now, c.s, &o, &m);
    super::track::drop_nonfinite_deflections::<SLIDE>(c.s);
    super::plan::plan_next::<SLIDE, E>(&now, &mut c, &m, was_settled, fx);
}
