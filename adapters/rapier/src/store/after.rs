//! [`TriboRapier::after_step`]: the step's entry after rapier's: the hook's reports taken in
//! canonical order, state for new contacts (`admit`), the contact pass over the tracked
//! contacts (`pass`, each moving contact through `pipeline`), and the sweep of contacts that
//! ended.

use super::observe::StepCtx;
use super::pass::PassCtx;
use super::*;

impl TriboRapier {
    /// Call right after `PhysicsPipeline::step`: reads each tribo contact's normal force from
    /// the solver's impulses, updates the static/kinetic modes and stick deflections from the
    /// relative velocities, plans the next step (friction coefficient, anchor pull-back, motor
    /// bounds; see [`before_step`](Self::before_step)), creates state for new contacts and
    /// removes the state and motor joint of contacts that ended (a body rolling or spinning on
    /// a support keeps its contact for up to three steps without an active contact).
    pub fn after_step(
        &mut self,
        params: &IntegrationParameters,
        bodies: &RigidBodySet,
        colliders: &ColliderSet,
        narrow_phase: &NarrowPhase,
        joints: &mut ImpulseJointSet,
    ) {
        self.step += 1;
        let step = self.step;
        if !std::mem::take(&mut self.prepared) && !self.reported_unprepared {
            self.reported_unprepared = true;
            self.diagnostics.push(Diagnostic::StepNotPrepared { step });
        }
        // A step with a time step that is not finite and positive (dt = 0, NaN, ∞, negative)
        // advances no deflection (0 s): `v · dt` with dt = NaN or ∞ would put NaN into the
        // deflections, and from there into the pull-back of the next steps.
        let plan_ok = params.dt > 0.0 && params.dt.is_finite();
        let dt = if plan_ok { params.dt } else { 0.0 };
        let slip_speed = self.settings.slip_speed;
        let inv_dt = if plan_ok { 1.0 / dt } else { 0.0 };
        let anchor = self.anchor_pose(bodies);
        // New contacts the hook reported this step (usually few): a pair without state is only
        // looked at if it is among them.
        let mut new_pairs =
            std::mem::take(&mut *self.inbox.new_pairs.get_mut().unwrap_or_else(|e| e.into_inner()));
        // Conveyor velocities set by the user's hook (usually none), by slot.
        let mut belts = std::mem::take(&mut *self.inbox.belts.get_mut().unwrap_or_else(|e| e.into_inner()));
        // Canonical order: the narrow phase (rapier's `parallel` feature: several threads) calls
        // the hook in any order; sorting by slot and value makes the sums below and the states
        // created for new contacts independent of it, so runs are bit-identical.
        let vbits = |v: Vector| [v.x.to_bits(), v.y.to_bits(), v.z.to_bits()];
        belts.sort_unstable_by_key(|b| (b.0, vbits(b.1)));
        new_pairs.sort_unstable_by_key(|p| (handle_key(p.c1), handle_key(p.c2), p.sliding, vbits(p.belt)));
        // The narrow phase's contact pairs by edge index: each state caches the index of its
        // pair (checked against the colliders; indices move when rapier removes pairs), so
        // after_step visits only the contacts it tracks, not every pair of overlapping AABBs.
        let edges = narrow_phase.contact_graph().raw_graph().raw_edges();
        let edge_of = |p: &ContactPair| -> u32 {
            let Some(e0) = edges.first() else { return u32::MAX };
            let i = (p as *const ContactPair as usize).wrapping_sub(edges.as_ptr() as usize)
                / std::mem::size_of_val(e0);
            if edges.get(i).is_some_and(|e| std::ptr::eq(&e.weight, p)) {
                i as u32
            } else {
                u32::MAX
            }
        };
        let pair_of = |c1: ColliderHandle, c2: ColliderHandle, cached: u32| -> Option<(&ContactPair, u32)> {
            match edges.get(cached as usize) {
                Some(e) if e.weight.collider1 == c1 && e.weight.collider2 == c2 => Some((&e.weight, cached)),
                _ => narrow_phase
                    .contact_pair(c1, c2)
                    .filter(|p| p.collider1 == c1 && p.collider2 == c2)
                    .map(|p| (p, edge_of(p))),
            }
        };
        // State for the new contacts the hook reported (a pair may be reported once per manifold).
        let first_new = self.contacts.states.len();
        let mut new_info = std::mem::take(&mut self.new_info);
        new_info.clear();
        self.admit(&new_pairs, &pair_of, bodies, colliders, &mut new_info);
        // Parked contacts (see `quiet`) are not visited: those of a body that moved in the step
        // (or changed) are unparked first.
        self.watch.parked.check_bodies(&self.contacts.states, bodies);
        let x = StepCtx {
            params,
            bodies,
            colliders,
            narrow_phase,
            step,
            dt,
            inv_dt,
            plan_ok,
            slip_speed,
            anchor,
            belts: &belts,
        };
        let pass = PassCtx {
            pair_of: &pair_of,
            pair_at: |e: u32| edges.get(e as usize).map(|e| &e.weight),
            first_new,
            new_info: &new_info,
        };
        self.contact_pass(&x, &pass, joints);
        self.new_info = new_info;
        let capped = self.take_capped();
        if !capped.is_empty() {
            self.report_capped(capped);
        }
        belts.clear();
        *self.inbox.belts.get_mut().unwrap_or_else(|e| e.into_inner()) = belts;
        new_pairs.clear();
        *self.inbox.new_pairs.get_mut().unwrap_or_else(|e| e.into_inner()) = new_pairs;
        self.sweep_ended(step, joints);
        // The hook sums the next step's warm starts from zero (a contact it does not see keeps
        // `WARM_UNSET`). Parked ones too: rapier may wake a body in a step and put it back to
        // sleep at its end, and the hook then saw its parked contacts.
        for w in &mut self.contacts.warm {
            *w.get_mut() = WARM_UNSET;
        }
        if !plan_ok {
            super::motor::clear_nonfinite_motor_impulses(&self.contacts.states, joints);
        }
        crate::diagnostics::after_step_monitor(self, bodies, colliders, narrow_phase, dt);
    }

    /// Removes the contacts not seen in step `step`: they ended (or their colliders or bodies
    /// were removed).
    fn sweep_ended(&mut self, step: u64, joints: &mut ImpulseJointSet) {
        // Contacts not seen this step ended (or their colliders/bodies were removed).
        let mut i = 0;
        loop {
            i = self.watch.parked.next_live(i, self.contacts.states.len());
            if i >= self.contacts.states.len() {
                break;
            }
            if self.contacts.states[i].seen != step {
                self.remove_state(i, joints);
            } else {
                i += 1;
            }
        }
    }
}
