//! [`TriboRapier::before_step`]: cleans up removed colliders and bodies, re-combines changed
//! materials, notices shape and parent changes and plans the contacts that wait for it.

use super::*;

impl TriboRapier {
    /// Call right before `PhysicsPipeline::step`: drops the state and motor of contacts whose
    /// colliders or bodies were removed, re-combines materials changed since the last step,
    /// sets the hook flag of material colliders (off for settled ones, see
    /// [`Settings::unhook_settled`]), and plans the Contensou contacts (their
    /// limits depend on the velocities the step starts from). The plan of every other contact
    /// (friction coefficient, anchor pull-back, motor bounds) was made by the last
    /// [`after_step`](Self::after_step) together with its stick/slip update.
    ///
    /// In a world with multibody joints, call
    /// [`note_multibody_joints`](Self::note_multibody_joints) before it.
    pub fn before_step(
        &mut self,
        params: &IntegrationParameters,
        bodies: &mut RigidBodySet,
        colliders: &mut ColliderSet,
        joints: &mut ImpulseJointSet,
    ) {
        // The forces and torques of the last step ([`RollSpin::Torques`]) come off first.
        if !self.torques.applied.is_empty() {
            self.take_back_torques(bodies);
        }
        self.prepare_world(params, bodies, colliders, joints);
        let anchor = self.anchor_pose(bodies);

        let dt = params.dt;
        let epoch = self.materials.epoch;
        let unhook = self.settings.unhook_settled;
        self.watch.begin();
        // Parked contacts (see `quiet`) are not visited: those of a collider or body that
        // changed, or all after a material change, are unparked first.
        let may_park = dt > 0.0 && dt.is_finite();
        if self.watch.parked.epoch() != epoch || !may_park {
            self.watch.parked.unpark_all();
        }
        self.watch.check_parked(&self.contacts.states, colliders);
        let pass = (dt, epoch, unhook, may_park, anchor.as_ref());
        let mut i = 0;
        loop {
            i = self.watch.parked.next_live(i, self.contacts.states.len());
            if i >= self.contacts.states.len() {
                break;
            }
            if self.check_contact(i, pass, bodies, colliders, joints) {
                i += 1;
            }
        }
        self.sit_out_or_lift_caps(dt, bodies, joints);
        // The hook flags of the material colliders: on, or off for settled ones.
        self.update_hooks(bodies, colliders);
        self.watch.parked.relist(&self.contacts.states, bodies);
        if self.settings.roll_spin == RollSpin::Torques && may_park {
            self.apply_torques(bodies);
        }
    }

    /// The world-level work of `before_step` before its contacts: adopting the world, giving
    /// back the motors' turn of the last step, waking the bodies of changed materials, dropping
    /// the materials of removed colliders, counting the user's joints, creating the anchor body.
    fn prepare_world(
        &mut self,
        params: &IntegrationParameters,
        bodies: &mut RigidBodySet,
        colliders: &ColliderSet,
        joints: &mut ImpulseJointSet,
    ) {
        self.prepared = true;
        self.timing = crate::rolling::StepTiming { dt: params.dt, substeps: params.num_solver_iterations };
        if !self.motors.adopted {
            self.adopt_world(bodies, joints);
        }
        // The turn the motors of contacts without points took off their bodies in the last
        // step (see `give_back`).
        if !self.motors.give_back.is_empty() {
            self.apply_give_back(bodies);
        }
        // A material set, changed or removed acts from this step: the collider's sleeping body
        // wakes (the bodies of its tracked contacts are woken below).
        // Its body's angular speed cap is lifted (see `angular_cap`).
        for h in std::mem::take(&mut self.wake) {
            let parent = colliders.get(h).and_then(|c| c.parent());
            wake_sleeping(bodies, [parent, None]);
            self.note_turning_body(parent);
        }
        // Materials of removed colliders go.
        let mut k = 0;
        while k < self.materials.colliders.len() {
            let h = self.materials.colliders[k];
            if colliders.get(h).is_none() {
                // Removed collider: its material goes (only its own: the full handle is the
                // key, a new collider in the same slot keeps the material it was given).
                self.materials.by_collider.remove(&handle_key(h));
                self.settle.ctl.remove(&handle_key(h));
                self.materials.colliders.swap_remove(k);
                self.materials.epoch += 1;
                continue;
            }
            k += 1;
        }
        self.settle.begin();
        self.count_user_joints(joints);
        // The hidden fixed body that motors of world sides (no body, or a fixed one) attach to,
        // once a motor needs it (`after_step` cannot insert bodies; the contacts that waited for
        // it are planned below).
        if self.motors.needs_anchor {
            self.motors.needs_anchor = false;
            self.anchor_or_create(bodies);
        }
    }

    /// Checks contact `i` before the step (`pass`: the step's dt, the material epoch, whether
    /// settled colliders leave the hook, whether quiet contacts may be parked, the anchor body):
    /// its colliders, shapes, parents and material, its settle verdict, and its plan if it waits
    /// for one or has a Contensou model. Returns false if the contact was removed (slot `i` now
    /// holds another).
    #[allow(clippy::type_complexity)]
    fn check_contact(
        &mut self,
        i: usize,
        (dt, epoch, unhook, may_park, anchor): (f32, u64, bool, bool, Option<&(RigidBodyHandle, Pose)>),
        bodies: &mut RigidBodySet,
        colliders: &ColliderSet,
        joints: &mut ImpulseJointSet,
    ) -> bool {
        let s = &self.contacts.states[i];
        let (c1, c2) = (s.c1, s.c2);
        // A contact whose colliders did not change (still there, same shape, parent,
        // friction, combination rule and hook flags) and whose material did not, that waits
        // for no plan and has no Contensou model: the checks below would find nothing but its
        // settle verdict (see `quiet`).
        if !s.pending
            && s.material_epoch == epoch
            && s.contensou_model.is_none()
            && s.shapes != SHAPES_RESTORED
            && (!s.quiet || s.verdict.is_some() || !unhook)
            && self.watch.collider_same(c1, None, colliders)
            && self.watch.collider_same(c2, None, colliders)
        {
            self.keep_unchanged(i, (epoch, unhook, may_park), bodies);
            return true;
        }
        let (Some(col1), Some(col2)) = (colliders.get(c1), colliders.get(c2)) else {
            self.remove_state(i, joints);
            return false;
        };
        let (p1, p2) = (col1.parent(), col2.parent());
        // A shape or parent changed (`set_shape`, `set_parent`): the curvatures, hence the
        // roll and spin capacities, are recomputed and the contact is planned again.
        let shapes = [shape_id(col1), shape_id(col2)];
        let s = &mut self.contacts.states[i];
        if s.shapes == SHAPES_RESTORED {
            // Restored from a snapshot together with its world: the shapes are the ones it
            // was planned from (at new addresses).
            s.shapes = shapes;
        }
        if s.shapes != shapes || s.parents != [p1, p2] {
            // A body removed with its collider kept takes its joints with it, this
            // contact's motor among them: no handle of it is kept (or reported).
            if s.parents != [p1, p2] && s.joint.is_some_and(|j| tribo_joint(joints, j).is_none()) {
                s.joint = None;
            }
            s.shapes = shapes;
            s.parents = [p1, p2];
            s.curvature = None;
            s.per_newton = None;
            s.extent = 0.0;
            s.kappa_const = [col1, col2].iter().all(|c| crate::curvature::direction_independent(c.shape()));
            s.pending = true;
            self.contacts.plans[i].line = crate::line_contact::may_touch_along_a_line([col1, col2]);
        }
        if self.contacts.states[i].material_epoch != epoch {
            match self.materials.contact_material((c1, col1), (c2, col2)) {
                Some((m, cz)) => {
                    let s = &mut self.contacts.states[i];
                    // A changed material acts from this step: its sleeping bodies wake (a
                    // box asleep on a slope given ice slides).
                    if s.material != m || s.contensou_model.as_deref() != cz.as_ref() {
                        wake_sleeping(bodies, [p1, p2]);
                    }
                    s.material = m;
                    s.per_newton = None;
                    s.torques = m.has_torques();
                    s.material_epoch = epoch;
                    s.contensou_model = cz.map(Box::new);
                    if s.contensou_model.is_none() {
                        s.contensou = Default::default();
                    }
                    s.pending = true;
                }
                None => {
                    // No tribo material any more: rapier's friction acts from this step.
                    wake_sleeping(bodies, [p1, p2]);
                    self.remove_state(i, joints);
                    return false;
                }
            }
        }
        // A contact whose sides are no longer dynamic (a body made fixed or kinematic, or
        // removed with its collider kept) is released with its motor by `after_step`; its
        // motor meanwhile joins two bodies the solver does not move.
        let friction = [col1, col2].map(|c| (c.friction(), c.friction_combine_rule()));
        let verdict = unhook.then(|| self.contact_settled(i, Some(friction)));
        self.settle.contribute(&mut self.contacts.states[i], verdict, true);
        let s = &self.contacts.states[i];
        let mut planned = false;
        if (s.pending || s.contensou_model.is_some()) && dt > 0.0 && dt.is_finite() {
            let (rb1, rb2) = (p1.and_then(|b| bodies.get(b)), p2.and_then(|b| bodies.get(b)));
            if is_moving_body(rb1) || is_moving_body(rb2) {
                planned = true;
                self.replan(i, colliders, [p1, p2], bodies, anchor, dt, joints);
            }
        }
        // Idle and not planned: unchanged until `after_step` updates it or a collider
        // changes (what the colliders are now is recorded for the next pass).
        let s = &mut self.contacts.states[i];
        s.quiet = s.idle && !planned && !s.pending && s.contensou_model.is_none();
        s.verdict = verdict;
        if s.quiet {
            self.watch.collider_same(c1, Some(col1), colliders);
            self.watch.collider_same(c2, Some(col2), colliders);
        }
        true
    }

    /// Contact `i` whose colliders and material did not change, that waits for no plan and has
    /// no Contensou model (see [`check_contact`](Self::check_contact)): only its settle verdict
    /// is given again, and a quiet one is parked while its bodies do not move.
    fn keep_unchanged(
        &mut self,
        i: usize,
        (epoch, unhook, may_park): (u64, bool, bool),
        bodies: &RigidBodySet,
    ) {
        let s = &self.contacts.states[i];
        if s.quiet {
            // Quiet (idle and checked since it last changed): the verdict it had, which it
            // keeps while parked. It is parked while its bodies do not move.
            let park = may_park && parks(s.parents, bodies);
            let verdict = unhook.then_some(s.verdict == Some(true));
            self.settle.contribute(&mut self.contacts.states[i], verdict, false);
            if park {
                self.watch.parked.park(i, epoch);
            }
        } else {
            let verdict = unhook.then(|| self.contact_settled(i, None));
            let s = &mut self.contacts.states[i];
            self.settle.contribute(s, verdict, true);
            s.quiet = s.idle;
            s.verdict = verdict;
        }
    }

    /// The end of `before_step` for the step's dt: a step without a finite positive dt takes the
    /// motors' rows off and puts rapier's angular speed cap back on; a valid one lifts the caps
    /// noted since the last step (see `angular_cap`).
    fn sit_out_or_lift_caps(&mut self, dt: f32, bodies: &mut RigidBodySet, joints: &mut ImpulseJointSet) {
        if !(dt > 0.0 && dt.is_finite()) {
            // A step without a finite positive time step: rapier does not integrate the bodies
            // (dt ≤ 0) but solves the joints with it, and a motor solved with a negative or
            // zero step throws its bodies (a ball at rest took 39 rad/s from one step at
            // dt = −1/60). The motors sit this step out; the next step with a valid dt plans
            // them again.
            for s in &mut self.contacts.states {
                if s.joint.is_some() {
                    super::motor::clear_motor_rows(&mut s.joint, joints);
                    s.pending = true;
                }
            }
            // rapier's angular speed cap holds the bodies at such a step (it caps their spin at
            // (π/4)/dt < 0): a ball at rest with the cap lifted took 0.16 m/s from one step at
            // dt = −1/60. The cap is back on the bodies of tribo's contacts for this step.
            self.cap_for_bad_step(bodies);
        } else {
            if dt < MIN_VALIDATED_DT {
                self.report_short_step(dt);
            }
            if !self.lift_cap.is_empty() {
                self.lift_angular_caps(bodies);
            }
        }
    }
}

/// Whether a quiet contact between bodies `parents` may be parked: both still (asleep, not
/// dynamic, or none) and one dynamic, as `after_step` keeps an idle contact.
fn parks(parents: [Option<RigidBodyHandle>; 2], bodies: &RigidBodySet) -> bool {
    let still = parents.map(|b| b.map(|b| quiet::Still::of(b, bodies)));
    still.iter().all(|s| s.is_none_or(|s| s.still)) && still.iter().flatten().any(|s| s.dynamic)
}

/// Wakes the sleeping dynamic bodies among `parents`.
fn wake_sleeping(bodies: &mut RigidBodySet, parents: [Option<RigidBodyHandle>; 2]) {
    for b in parents.into_iter().flatten() {
        if bodies.get(b).is_some_and(|rb| rb.is_dynamic() && rb.is_sleeping()) {
            if let Some(rb) = bodies.get_mut(b) {
                rb.wake_up(true);
            }
        }
    }
}
