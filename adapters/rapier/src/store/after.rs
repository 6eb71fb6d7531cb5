//! [`TriboRapier::after_step`]: normal forces from the solver's impulses, slip at the material
//! points, stick/slip updates, the next step's plan, state for new contacts.

use super::bodies::{BodiesNow, BodyNow, DYNAMIC, ENABLED, MASS_OK, MOVING, PRESENT};
use super::effects::{record_give_back, Direct, Effects, Slot, StoreView};
#[cfg(feature = "parallel")]
use super::effects::{Deferred, Op};
use super::modes::{advance_mode, hold_step};
use super::plan::angular_slip_speeds;
use super::prefetch::{prefetch, prefetch_ends, prefetch_lines, AHEAD};
use super::quiet::StillBodies;
use super::settle::SETTLE_SLIP;
use super::*;
use crate::curvature::collider_curvature;
use crate::rapier3d::parry::math::Vec3A;

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
        let epoch = self.material_epoch;
        let inv_dt = if plan_ok { 1.0 / dt } else { 0.0 };
        let anchor = self.anchor_pose(bodies);
        // New contacts the hook reported this step (usually few): a pair without state is only
        // looked at if it is among them.
        let mut new_pairs = std::mem::take(&mut *self.new_pairs.get_mut().unwrap_or_else(|e| e.into_inner()));
        // Conveyor velocities set by the user's hook (usually none), by slot.
        let mut belts = std::mem::take(&mut *self.belts.get_mut().unwrap_or_else(|e| e.into_inner()));
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
        let first_new = self.states.len();
        let mut new_info = std::mem::take(&mut self.new_info);
        new_info.clear();
        for p in &new_pairs {
            let (c1, c2) = (p.c1, p.c2);
            let k = key(c1, c2);
            if self.index.contains_key(&k) {
                continue;
            }
            let Some((pair, edge)) = pair_of(c1, c2, u32::MAX) else { continue };
            let (Some(col1), Some(col2)) = (colliders.get(c1), colliders.get(c2)) else { continue };
            let moving = |c: &Collider| is_moving_body(c.parent().and_then(|b| bodies.get(b)));
            if !(moving(col1) || moving(col2)) || !pair.has_any_active_contact() {
                continue;
            }
            let Some((material, contensou_model)) = self.contact_material((c1, col1), (c2, col2)) else {
                continue;
            };
            let kappa_const = [col1, col2].iter().all(|c| crate::curvature::direction_independent(c.shape()));
            self.states.push(PairState {
                c1,
                c2,
                shapes: [shape_id(col1), shape_id(col2)],
                parents: [col1.parent(), col2.parent()],
                edge,
                material,
                torques: material.has_torques(),
                material_epoch: epoch,
                contensou_model: contensou_model.map(Box::new),
                seen: 0,
                n: 0.0,
                normal: Vector::Y,
                point: Vector::ZERO,
                slide: if p.sliding { Mode::Kinetic } else { Mode::Static },
                roll: Mode::Static,
                spin: Mode::Static,
                slide_defl: Vector::ZERO,
                roll_defl: Vector::ZERO,
                spin_defl: 0.0,
                roll_axis: Vector::ZERO,
                curvature: None,
                per_newton: None,
                kappa_const,
                roll_cap: 0.0,
                spin_cap: 0.0,
                joint: None,
                pending: false,
                contensou: Default::default(),
                hold: if p.turning { 0 } else { HOLD_ROLL | HOLD_SPIN }
                    | if p.sliding || p.turning || p.belt != Vector::ZERO { 0 } else { HOLD_SLIDE },
                hold_onset: [0.0; 2],
                slide_onset: 0.0,
                last_slip: ([0.0; 2], [false; 2]),
                slide_anchor: [Vector::ZERO; 2],
                onset_rot: [Rotation::IDENTITY; 2],
                roll_fix: Vector::ZERO,
                roll_threshold: 0.0,
                last_w: [0.0; 2],
                kinetic_drop: [0.0; 2],
                settled: false,
                hook_plain: false,
                applied_mu: f32::NAN,
                off_motion: [0.0; 2],
                extent: 0.0,
                unhook_mu: [f32::NAN; 2],
                combine_ok: None,
                unhook_mu_epoch: 0,
                warm_next: 0.0,
                absent: 0,
                idle: false,
                quiet: false,
                verdict: None,
                counted: 0,
            });
            self.warm.push(AtomicU32::new(0));
            let mu = if p.sliding { material.mu_k() } else { material.mu_s() };
            self.plans.push(Plan {
                c1,
                c2,
                mu: mu as f32,
                tangent_velocity: Vector::ZERO,
                stock: false,
                collapse: false,
                roll_stopped: false,
                stop_offset: Vector::ZERO,
                line: crate::line_contact::may_touch_along_a_line([col1, col2]),
                hold_radius: 0.0,
            });
            self.index.insert(k, (self.states.len() - 1) as u32);
            new_info.push(*p);
            // Its bodies turn free of rapier's angular speed cap from the next step (see
            // `angular_cap`).
            for parent in [col1.parent(), col2.parent()] {
                if parent.is_some_and(|b| is_dynamic_body(bodies.get(b))) {
                    self.note_turning_body(parent);
                }
            }
        }
        // Parked contacts (see `quiet`) are not visited: those of a body that moved in the step
        // (or changed) are unparked first.
        self.watch.parked.check_bodies(&self.states, bodies);
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
        *self.belts.get_mut().unwrap_or_else(|e| e.into_inner()) = belts;
        new_pairs.clear();
        *self.new_pairs.get_mut().unwrap_or_else(|e| e.into_inner()) = new_pairs;
        // Contacts not seen this step ended (or their colliders/bodies were removed).
        let mut i = 0;
        loop {
            i = self.watch.parked.next_live(i, self.states.len());
            if i >= self.states.len() {
                break;
            }
            if self.states[i].seen != step {
                self.remove_state(i, joints);
            } else {
                i += 1;
            }
        }
        // The hook sums the next step's warm starts from zero (a contact it does not see keeps
        // `WARM_UNSET`). Parked ones too: rapier may wake a body in a step and put it back to
        // sleep at its end, and the hook then saw its parked contacts.
        for w in &mut self.warm {
            *w.get_mut() = WARM_UNSET;
        }
        if !plan_ok {
            super::motor::clear_nonfinite_motor_impulses(&self.states, joints);
        }
        crate::diagnostics::after_step_monitor(self, bodies, colliders, narrow_phase, dt);
    }

    /// Updates every live contact (see [`visit`]): one after another, or (`parallel` feature,
    /// several threads in rayon's pool and enough contacts) in chunks of slots on the pool's
    /// threads, each recording its effects, which are then made in slot order (see `effects`):
    /// the same to the bit either way, at any number of threads.
    #[inline(never)]
    fn contact_pass<'n, P, Q>(
        &mut self,
        x: &StepCtx<'n>,
        pass: &PassCtx<'_, P, Q>,
        joints: &mut ImpulseJointSet,
    ) where
        P: Fn(ColliderHandle, ColliderHandle, u32) -> Option<(&'n ContactPair, u32)> + Sync,
        Q: Fn(u32) -> Option<&'n ContactPair> + Sync,
    {
        let view = StoreView {
            settings: self.settings,
            user_joints: self.user_joints,
            multibody_links: &self.multibody_links,
        };
        #[cfg(feature = "parallel")]
        {
            let threads = rayon::current_num_threads();
            if threads > 1 && self.states.len() >= PARALLEL_MIN {
                use rayon::prelude::*;
                if self.caches.len() < threads {
                    self.caches.resize_with(threads, Default::default);
                }
                let (caches, parked) = (&self.caches, &self.watch.parked);
                let shared: &ImpulseJointSet = joints;
                let ops: Vec<Vec<Op>> = self
                    .states
                    .par_chunks_mut(CHUNK)
                    .zip(self.plans.par_chunks_mut(CHUNK))
                    .zip(self.warm.par_chunks(CHUNK))
                    .enumerate()
                    .map(|(k, ((states, plans), warm))| {
                        let t = rayon::current_thread_index().unwrap_or(0) % caches.len();
                        let mut cache = caches[t].lock().unwrap_or_else(|e| e.into_inner());
                        let mut fx = Deferred { joints: shared, ops: Vec::new() };
                        let slots = Slots { base: k * CHUNK, states, plans, warm, parked };
                        visit(slots, x, pass, &view, &mut cache, &mut fx);
                        fx.ops
                    })
                    .collect();
                self.apply(ops.into_iter().flatten(), joints);
                return;
            }
        }
        let cache = self.caches[0].get_mut().unwrap_or_else(|e| e.into_inner());
        let mut fx = Direct {
            joints,
            give_back: &mut self.give_back,
            reported: &mut self.reported,
            diagnostics: &mut self.diagnostics,
            needs_anchor: &mut self.needs_anchor,
        };
        let slots = Slots {
            base: 0,
            states: &mut self.states,
            plans: &mut self.plans,
            warm: &self.warm,
            parked: &self.watch.parked,
        };
        visit(slots, x, pass, &view, cache, &mut fx);
    }

    /// The bodies the last contact pass read at rapier's angular speed cap, by handle.
    fn take_capped(&mut self) -> Vec<RigidBodyHandle> {
        let mut capped: Vec<RigidBodyHandle> = Vec::new();
        for c in &mut self.caches {
            capped.append(&mut c.get_mut().unwrap_or_else(|e| e.into_inner()).now.take_capped());
        }
        capped.sort_unstable_by_key(|h| h.into_raw_parts());
        capped.dedup();
        capped
    }
}

/// The fewest contacts a store must track for the contact pass to run on several threads.
#[cfg(feature = "parallel")]
const PARALLEL_MIN: usize = 256;
/// Contact slots per parallel task.
#[cfg(feature = "parallel")]
const CHUNK: usize = 128;

/// The caches one thread of the contact pass keeps from step to step: the bodies as read in this
/// step, and whether bodies of idle contacts are still. (Each entry is what rapier's body says,
/// read once per step: a thread's cache gives the same values as any other's.)
#[derive(Default)]
pub(super) struct PassCache {
    now: BodiesNow,
    still: StillBodies,
}

impl PassCache {
    /// The caches of a store: one (a serial pass; a parallel one adds one per thread).
    pub(super) fn one() -> Vec<Mutex<PassCache>> {
        vec![Mutex::new(PassCache::default())]
    }
}

/// What the contact pass reads of the step besides [`StepCtx`]: a contact's pair in the narrow
/// phase by its colliders and the edge index it had (`pair_of`: its pair and edge index now) and
/// by edge index (`pair_at`).
struct PassCtx<'a, P, Q> {
    pair_of: P,
    pair_at: Q,
    /// The first slot of the contacts new in this step, and their records.
    first_new: usize,
    new_info: &'a [NewPair],
}

/// A run of contact slots (from slot `base` on) for [`visit`], and the parked-slot bits.
struct Slots<'a> {
    base: usize,
    states: &'a mut [PairState],
    plans: &'a mut [Plan],
    warm: &'a [AtomicU32],
    parked: &'a quiet::Parked,
}

/// The contact pass over the live (not parked) slots of `slots`: for each, whether it can be
/// kept as it is (idle, its bodies still), its pair in the narrow phase (none: its motor's turn
/// in the step is given back), its bodies as read in this step, and then its update (see
/// [`update`]).
#[inline(never)]
fn visit<'n, E, P, Q>(
    slots: Slots<'_>,
    x: &StepCtx<'n>,
    pass: &PassCtx<'_, P, Q>,
    view: &StoreView<'_>,
    cache: &mut PassCache,
    fx: &mut E,
) where
    E: Effects,
    P: Fn(ColliderHandle, ColliderHandle, u32) -> Option<(&'n ContactPair, u32)>,
    Q: Fn(u32) -> Option<&'n ContactPair>,
{
    let Slots { base, states, plans, warm, parked } = slots;
    let PassCache { now, still } = cache;
    let (bodies, step, dt) = (x.bodies, x.step, x.dt);
    let (pair_of, pair_at) = (&pass.pair_of, &pass.pair_at);
    let mut pressing = crate::slip::Pressing::default();
    let end = base + states.len();
    let mut next = base;
    loop {
        let idx = parked.next_live(next, end);
        if idx >= end {
            break;
        }
        next = idx + 1;
        let local = idx - base;
        // The loop is bound by cache misses on rapier's pair, manifold, solver-contact and
        // body data (scattered on the heap): start loading the data of the contacts a few
        // iterations ahead, one level of indirection per stage. Contacts whose bodies were
        // asleep at the last `after_step` are not prefetched (most stay asleep; a body woken
        // since is only not loaded ahead). The store's own states are large (their fields for
        // every model): their first line two stages ahead (`PairState` is laid out for
        // this), and the part of the state the common step reads half a stage ahead.
        let ahead = |k: usize| states.get(local + k).filter(|s| !s.idle);
        if let Some(s) = states.get(local + 2 * AHEAD) {
            prefetch((s as *const PairState).cast::<u8>());
            if let Some(p) = pair_at(s.edge).filter(|_| !s.idle) {
                prefetch(p);
            }
        }
        if let Some(s) = ahead(AHEAD) {
            if let Some(p) = pair_at(s.edge) {
                for m in p.solver_manifolds() {
                    // The solver contacts, points, bodies, normal, friction and dominance.
                    prefetch_lines(m, MANIFOLD_READ);
                }
            }
            // A body is read from rapier once per step (its first contact), then from `now`.
            for &b in s.parents.iter().flatten() {
                now.prefetch(b, step);
            }
        }
        if let Some(s) = ahead(AHEAD / 2) {
            prefetch_lines(s, PairState::COLD);
            if let Some(p) = pair_at(s.edge) {
                for m in p.solver_manifolds() {
                    prefetch_ends(&m.data.solver_contacts);
                    prefetch_ends(&m.points);
                }
            }
        }
        // The parents `before_step` checked (or `after_step` recorded for a new contact):
        // nothing changes the sets between the two.
        let (c1, c2, cached_edge, [par1, par2], was_idle) = {
            let s = &states[local];
            (s.c1, s.c2, s.edge, s.parents, s.idle)
        };
        if was_idle {
            // Idle at the last step and its bodies still asleep (or not dynamic, one of
            // them dynamic): kept as it is, without looking its pair up (see `quiet`).
            let b1 = still.get(par1, bodies, step);
            let b2 = still.get(par2, bodies, step);
            if b1.still && b2.still && (b1.dynamic || b2.dynamic) {
                states[local].seen = step;
                continue;
            }
        }
        let Some((pair, edge)) = pair_of(c1, c2, cached_edge) else {
            // The pair is gone (swept below with its motor): the motor acted in this step
            // without a contact.
            record_give_back(&states[local], x.params, bodies, fx);
            continue;
        };
        let new = idx.checked_sub(pass.first_new).and_then(|j| pass.new_info.get(j));
        // Each body read once per step (`now`); rapier's own body only where a rarer part of
        // the update needs it.
        let (b1, b2) = (now.get(par1, bodies, step, dt), now.get(par2, bodies, step, dt));
        let (b1, b2) = (b1.map_or(&BodyNow::WORLD, |i| now.at(i)), b2.map_or(&BodyNow::WORLD, |i| now.at(i)));
        let (moving1, moving2) = (b1.is(MOVING), b2.is(MOVING));
        let (dynamic1, dynamic2) = (b1.is(DYNAMIC), b2.is(DYNAMIC));
        // rapier disables (quarantines) a body whose state went non-finite in the step; the
        // solver left NaN in the warm start of the motor that acted on it.
        if let Some(j) = states[local].joint {
            let disabled = |b: &BodyNow| b.is(PRESENT) && !b.is(ENABLED);
            if disabled(b1) || disabled(b2) {
                fx.clear_nonfinite_motor_impulse(j);
            }
        }
        let st = &mut states[local];
        st.edge = edge;
        st.idle = !(moving1 || moving2);
        if moving1 || moving2 {
            st.quiet = false;
        }
        if !(moving1 || moving2) {
            // Asleep: keep everything. No dynamic side any more (a body made fixed or
            // kinematic): swept below with its motor.
            if dynamic1 || dynamic2 {
                st.seen = step;
            }
            continue;
        }
        let steady = {
            let (s, plan) = (&states[local], &plans[local]);
            new.is_none()
                && x.belts.is_empty()
                && s.hold == 0
                && s.absent == 0
                && s.contensou_model.is_none()
                && s.curvature.is_some()
                && !plan.stock
                && !plan.roll_stopped
                && !plan.collapse
        };
        // Slide only: a steady contact without roll or spin resistance (its roll and spin
        // static, no motor, curvatures that do not depend on the direction).
        let slide_only = steady && {
            let s = &states[local];
            !s.torques
                && s.roll == Mode::Static
                && s.spin == Mode::Static
                && s.joint.is_none()
                && s.kappa_const
        };
        let slot = Slot { i: idx, s: &mut states[local], plan: &mut plans[local], warm: &warm[local] };
        let contact = (slot, (pair, new), (b1, b2));
        match (steady, slide_only) {
            (true, true) => update::<true, true, E>(x, view, contact, &mut pressing, fx),
            (true, false) => update::<true, false, E>(x, view, contact, &mut pressing, fx),
            _ => update::<false, false, E>(x, view, contact, &mut pressing, fx),
        }
    }
}

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
fn update<const STEADY: bool, const SLIDE: bool, E: Effects>(
    x: &StepCtx<'_>,
    view: &StoreView<'_>,
    (mut c, (pair, new), (b1, b2)): ContactNow<'_>,
    pressing: &mut crate::slip::Pressing,
    fx: &mut E,
) {
    let idx = c.i;
    // The parents `before_step` checked (or `after_step` recorded for a new contact).
    let (c1, c2, [par1, par2]) = {
        let s = &*c.s;
        (s.c1, s.c2, s.parents)
    };
    let StepCtx {
        params, bodies, colliders, narrow_phase, step, dt, inv_dt, plan_ok, slip_speed, belts, ..
    } = *x;
    let anchor = &x.anchor;
    let new = if STEADY { None } else { new };
    let rbs = || [par1.and_then(|b| bodies.get(b)), par2.and_then(|b| bodies.get(b))];
    let (moving1, moving2) = (b1.is(MOVING), b2.is(MOVING));
    let (dynamic1, dynamic2) = (b1.is(DYNAMIC), b2.is(DYNAMIC));
    // Normal force, normal and points from the solver's impulses. rapier 0.35 reports in
    // `impulse` the step's total plus the warm start it began with (the last substep
    // impulse of the previous step, which the hook summed in `warm`); 0.36
    // reports the plain total.
    // (In SIMD vectors: the same arithmetic as the plain vectors', in fewer instructions.)
    let mut imp = 0.0f32;
    let mut warm_next = 0.0f32;
    let mut nsum = Vec3A::ZERO;
    let (mut p1sum, mut p2sum) = (Vec3A::ZERO, Vec3A::ZERO);
    let (mut p1avg, mut p2avg) = (Vec3A::ZERO, Vec3A::ZERO);
    let mut count = 0.0f32;
    // The friction coefficient the solver applied in this step (the hook's, or rapier's
    // combination at a full update off the hook, or the one a recycled pair kept).
    let mut applied_mu = f32::NAN;
    // A body-side anchor is the material point that touched at the start of the step, in
    // the body's CoM-centred local frame: after the step it has turned with the body (a
    // rolling ball's by ω·dt, up and away from the ground). The contact now touches the
    // material point at the same world offset from the centre of mass as then, so the
    // step's rotation is undone (once per body): the slip of a body rolling without slip
    // is then zero whatever its speed.
    for m in pair.solver_manifolds() {
        let (mf1, mf2) = manifold_frames(m, b1, b2);
        for c in &m.data.solver_contacts {
            let id = c.contact_indices()[0] as usize;
            let (pi, wi) = m
                .points
                .get(id)
                .map_or((0.0, 0.0), |p| (p.data.impulse.max(0.0), p.data.warmstart_impulse.max(0.0)));
            warm_next += wi;
            let (a, b) = (mf1.anchor_in_world(c.anchor1), mf2.anchor_in_world(c.anchor2));
            imp += pi;
            nsum += Vec3A::from(m.data.normal) * pi;
            p1sum += a * pi;
            p2sum += b * pi;
            p1avg += a;
            p2avg += b;
            count += 1.0;
        }
        if !m.data.solver_contacts.is_empty() {
            applied_mu = m.data.friction;
            if nsum == Vec3A::ZERO {
                nsum = Vec3A::from(m.data.normal) * 1e-12;
            }
        }
    }
    if count == 0.0 {
        // No active contact in this step. The motor still acted in it (rapier solves
        // the joint whatever the contact does): the turn it gave the bodies is given back
        // by the next `before_step` (see `give_back`).
        record_give_back(c.s, params, bodies, fx);
        // A body rolling or spinning on a support (kinetic roll or spin, one side not
        // dynamic) keeps its contact for up to `ABSENT_STEPS` such steps, reported
        // unloaded, its plan and motor bounds those of its last loaded step: parry's
        // contact of a cylinder on its side (as the pair's first collider) on a box
        // loses its points for a step now and then, and the contact that comes back is
        // the same rolling contact, loaded in the step it comes back in (the motor's
        // turn in the steps between is given back). Any other contact, or after that:
        // swept below (two bodies of a pile that part keep nothing: a contact between
        // them that begins again starts sticking, and the pile falls asleep as before).
        let s = &mut *c.s;
        let turning = s.roll == Mode::Kinetic || s.spin == Mode::Kinetic;
        let on_support = !(dynamic1 && dynamic2);
        if turning && on_support && s.absent < ABSENT_STEPS && plan_ok {
            s.absent += 1;
            s.seen = step;
            s.n = 0.0;
            // The surfaces parted: a sticking slide lets go of its deflection (as any
            // unloaded step does, `advance_mode`).
            if s.slide == Mode::Static {
                s.slide_defl = Vector::ZERO;
            }
        }
        return;
    }
    let returned = !STEADY && std::mem::take(&mut c.s.absent) > 0;
    let len = nsum.length();
    let normal_a = if len > 0.0 { nsum * (1.0 / len) } else { Vec3A::Y };
    let (p1, p2) = if imp > 0.0 { (p1sum / imp, p2sum / imp) } else { (p1avg / count, p2avg / count) };
    let plan = &*c.plan;
    let s = &mut *c.s;
    // A contact whose friction acted in its body's centre-of-mass plane in this step (a
    // roll that had just stopped) keeps the point it touched at.
    let (p1, p2) = if !STEADY && plan.roll_stopped { (s.point.into(), s.point.into()) } else { (p1, p2) };
    // A round body's contact on its one support (see `crate::rolling`): both sides at the
    // solver's point, the round body's surface point when the hook held it (a body turning
    // too slowly for the hold: the sides' midpoint, a distance of half the penetration from
    // it along the normal).
    let held = new.is_none() && plan.hold_radius > 0.0;
    let (p1, p2) = if held {
        let m = (p1 + p2) * 0.5;
        (m, m)
    } else {
        (p1, p2)
    };
    let point_a = (p1 + p2) * 0.5;
    if !(normal_a.is_finite() && point_a.is_finite()) {
        return;
    }
    let (normal, point) = (Vector::from(normal_a), Vector::from(point_a));
    // What the hook did to the pair's solver contacts in this step (if hooked).
    let hook_plain =
        plan.tangent_velocity == Vector::ZERO && (STEADY || (!plan.roll_stopped && !plan.collapse));
    s.seen = step;
    s.hook_plain = hook_plain;
    s.applied_mu = applied_mu;
    // The hook summed the warm start of a hooked pair; a pair off the hook (see
    // `settle`) started from the warm starts the last step left.
    let warm = match c.warm.load(Ordering::Relaxed) {
        WARM_UNSET => s.warm_next,
        bits => f32::from_bits(bits),
    };
    s.warm_next = warm_next;
    let total = if compat::IMPULSE_INCLUDES_WARMSTART { imp - warm } else { imp };
    // The last step carried no load (or the contact is new): if this one does, the
    // bodies touched during it (see the settle test below).
    let unloaded_before = s.n <= 0.0;
    // A step without a finite positive dt measures no force: the last one stands (the
    // next plan's motor bounds come from it).
    if plan_ok {
        s.n = (total * inv_dt).max(0.0);
    }
    s.normal = normal;
    s.point = point;
    if !STEADY && s.contensou_model.is_some() && s.contensou.enabled {
        if let (Some(col1), Some(col2)) = (colliders.get(c1), colliders.get(c2)) {
            crate::contensou::observe(
                &mut s.contensou,
                pair,
                bodies,
                [col1, col2],
                [moving1, moving2],
                normal,
                params.prediction_distance(),
            );
        }
    }
    if !STEADY && plan.stock {
        s.settled = false;
        // Zero-mass fallback: back to tribo once the masses are valid (re-checked by the plan).
        if plan_ok {
            super::plan::replan(&mut c, view, colliders, [par1, par2], bodies, anchor.as_ref(), dt, fx);
        }
        return;
    }
    // Relative kinematics after the step, each body at its own contact point (the
    // points the solver's friction rows use).
    let (v1, v2) = (b1.velocity_at(p1), b2.velocity_at(p2));
    // Slip relative to a conveyor surface the user's hook set (`tangent_velocity`; none:
    // no belt to take off).
    let dv = match new {
        Some(p) => v2 - v1 - Vec3A::from(p.belt),
        None if STEADY || belts.is_empty() => v2 - v1,
        None => v2 - v1 - Vec3A::from(x.belt_of(idx)),
    };
    let slip = dv - normal_a * dv.dot(normal_a);
    let (w1, w2) = (b1.angvel, b2.angvel);
    let w = w2 - w1;
    let wn = w.dot(normal_a);
    let wt = w - normal_a * wn;
    let (dv, slip, wt) = (Vector::from(dv), Vector::from(slip), Vector::from(wt));
    // Thresholds. Stick → slip as in docs/tracking.md §2.2/§3.4/§4.2: when the deflection accumulated
    // while sticking (slide offset S, roll angle Θ, spin angle Ψ) exceeds the static
    // threshold of the material (μs N/K_E, Θ^s, 𝒮_s^ψ). Slip → stick when the relative
    // velocity falls below `slip_speed` (angular: `slip_speed·κ̄`).
    let (k1, k2) = match s.curvature {
        Some(k) => k,
        None => {
            // New contact: curvatures along the current rolling direction.
            let (Some(col1), Some(col2)) = (colliders.get(c1), colliders.get(c2)) else { return };
            let dir = if wt.length() > 1e-6 { normal.cross(wt).normalize() } else { any_perp(normal) };
            let k =
                (collider_curvature(col1, point, normal, dir), collider_curvature(col2, point, -normal, dir));
            s.curvature = Some(k);
            s.per_newton = None;
            k
        }
    };
    let d = if SLIDE { s.derived_slide(s.n, (k1, k2)) } else { s.derived(s.n, (k1, k2)) };
    let (roll_eps, spin_eps) = angular_slip_speeds(slip_speed, (k1, k2));
    let loaded = s.n > 0.0;
    // A held rolling contact: the roll motor acts in every substep of the step, the
    // friction only in those with a normal impulse (rapier's solver reads a gap at a
    // rolling body's contact late in the step, see `crate::rolling`), and the motor's torque
    // there leaves the contact slipping by up to what it turns the bodies at the contact
    // point in a step. Any other contact: rapier's solver leaves a small apparent slip on
    // fast rolling contacts (its lever arms are frozen over the step), and 1 % of the
    // relative body speed is ignored.
    let tol = if held {
        if s.joint.is_some() {
            motor_slip(s, rbs(), point, dt)
        } else {
            0.0
        }
    } else {
        0.01 * (b2.linvel - b1.linvel).length()
    };
    let slide_eps = slip_speed + tol;
    // A body pressed into supports with different normals: the solver's approach
    // velocity into one reads as slip at the other. Measured without it, and within
    // the part of it that lies in this contact's tangent plane (`crate::slip`).
    let on_support = !(dynamic1 && dynamic2);
    let (slip, tol, slide_eps) =
        if on_support && crate::slip::may_be_pressing(slip, dv, normal, slide_eps, slip_speed) {
            let (slip, extra) = pressing.slip(dv, normal, [par1, par2], bodies, colliders, narrow_phase, dt);
            (slip, tol + extra, slide_eps + extra)
        } else {
            (slip, tol, slide_eps)
        };

    // Slide. While held (see `hold_step`) the deflection is the offset of the material
    // points that touched when the contact began, from the bodies' poses: rapier's
    // normal force builds up over a contact's first step, and the friction bound with
    // it, so a body set down on a slope slides a little before the contact holds, and
    // the pull-back that returns it moves it in substeps (the velocities after a step
    // say little of how far it went).
    if let Some(p) = new {
        let [rb1, rb2] = rbs();
        // Each side's moving body and its pose when the step began (none: the side is
        // fixed in the world).
        let sides = [(rb1, p.start[0]), (rb2, p.start[1])].map(|side| match side {
            (Some(rb), Some(start)) if !rb.is_fixed() => Some((rb, start)),
            _ => None,
        });
        // Where the surfaces touched when the step began: each side's point less its
        // body's motion over the step (`p1`, `p2` moved with their centres of mass).
        let back = |q: Vector, side: Option<(&RigidBody, (Vector, Rotation))>| {
            side.map_or(q, |(rb, (com, _))| q - (rb.center_of_mass() - com))
        };
        let p0 = (back(p1.into(), sides[0]) + back(p2.into(), sides[1])) * 0.5;
        let p0 = if finite(p0) { p0 } else { point };
        s.slide_anchor = sides.map(|side| side.map_or(p0, |(_, (com, rot))| rot.inverse() * (p0 - com)));
        s.onset_rot = sides.map(|side| side.map_or(Rotation::IDENTITY, |(_, (_, rot))| rot));
    }
    // Held only for a body on this one support and while it does not roll: with several
    // supports the anchors of its contacts disagree, and a rolling body's touching
    // material points change.
    if !STEADY
        && s.hold & HOLD_SLIDE != 0
        && (s.roll != Mode::Static || !touches_nothing_else(narrow_phase, [c1, c2], rbs()))
    {
        s.hold &= !HOLD_SLIDE;
    }
    let held_slide = (!STEADY && s.hold & HOLD_SLIDE != 0).then(|| {
        let [rb1, rb2] = rbs();
        let at = |rb: Option<&RigidBody>, a: Vector| match rb {
            Some(rb) if !rb.is_fixed() => rb.center_of_mass() + rb.rotation() * a,
            _ => a,
        };
        let d = at(rb2, s.slide_anchor[1]) - at(rb1, s.slide_anchor[0]);
        let d = d - normal * d.dot(normal);
        if finite(d) {
            d
        } else {
            Vector::ZERO
        }
    });
    let slide_accumulate = |defl: Vector| {
        let next = match held_slide {
            Some(d) => d,
            None => {
                let sl = slip.length();
                let excess = if sl > tol { slip * ((sl - tol) / sl) } else { Vector::ZERO };
                let dd = defl + excess * dt;
                dd - normal * dd.dot(normal)
            }
        };
        (next, next.length() as f64)
    };
    // A contact of a body on the user's joints (no anchor pull-back) turns kinetic only once
    // its friction or motor reached its bound: see `bounds_reached`.
    let bounds = if view.user_joints || !view.multibody_links.is_empty() {
        bounds_reached(view, [par1, par2], rbs(), (pair, params, s.applied_mu), s.joint, fx.joints())
            .map(Some)
    } else {
        [None; 3]
    };
    // A held slide is released within one step at the slip speed, and within half the
    // static threshold (so the ordinary stick goes on from there).
    mechanism_step(
        false,
        (!STEADY, new.is_some()),
        (&mut s.hold, HOLD_SLIDE, &mut s.slide_onset),
        (&mut s.slide, &mut s.slide_defl),
        (loaded, d.slide_static, ((slip_speed * dt) as f64).min(0.5 * d.slide_static)),
        (
            slip.length(),
            slide_eps,
            slip.length() <= slide_eps,
            bounds[0].is_none_or(|b| slipping(b, slip.length(), slide_eps, &mut s.last_slip, 0)),
        ),
        slide_accumulate,
    );
    // The step a kept contact's points came back in (a landing): its tangential motion
    // is mostly the flight before the touch and the solver's recovery of the landing's
    // penetration, not a deflection of surfaces that stuck; it is judged against the
    // full threshold above, and a sticking slide starts from the end of the step.
    if returned && s.slide == Mode::Static {
        s.slide_defl = Vector::ZERO;
    }
    let was_rolling = !SLIDE && s.roll == Mode::Kinetic;
    // What the last step's kinetic torque took off the relative roll and spin speeds:
    // the next step's motor carries only the fraction that stops them (see
    // `plan_contact`).
    let speeds = [wt.length(), wn.abs()];
    for (k, mode) in [s.roll, s.spin].into_iter().enumerate() {
        s.kinetic_drop[k] = if !SLIDE && mode == Mode::Kinetic && new.is_none() {
            (s.last_w[k] - speeds[k]).max(0.0)
        } else {
            0.0
        };
    }
    s.last_w = speeds;
    // Roll (off, or degenerate curvature: a static roll stays static with no
    // deflection). A rolling contact keeps rolling until its relative roll speed stops
    // it: over a step without load (a hop: the normal force and the capacities are
    // zero), and over a step whose curvature is degenerate (parry's manifold of a
    // cylinder on its side now and then has a normal tilted towards the cylinder's
    // axis, along which the plan finds the flat end face: turned static by it, the roll
    // held the still rolling cylinder with its static capacity in the next step).
    let roll_on = d.roll_static > 0.0;
    s.roll_threshold = d.roll_static as f32;
    let roll_accumulate = |defl: Vector| {
        let dd = defl + wt * dt;
        let next = dd - normal * dd.dot(normal);
        (next, next.length() as f64)
    };
    // A roll that sticks and is off or unloaded has no deflection and no hold (what
    // `hold_step` and `advance_mode` make of it).
    mechanism_step(
        SLIDE || (s.roll == Mode::Static && !(loaded && roll_on)),
        (!STEADY, new.is_some()),
        (&mut s.hold, HOLD_ROLL, &mut s.hold_onset[0]),
        (&mut s.roll, &mut s.roll_defl),
        (loaded && roll_on, d.roll_static, d.roll_static),
        (wt.length(), roll_eps, wt.length() <= roll_eps, bounds[1].unwrap_or(true)),
        roll_accumulate,
    );
    // A body that stops rolling sticks where it stopped: what the slide deflection
    // gathered while it rolled (the contact point moved on both surfaces, and any slip
    // then was the solver's tolerance) is no stick load, and pulling it back would move
    // the stopped body backwards.
    if !SLIDE && was_rolling && s.roll == Mode::Static {
        s.slide_defl = Vector::ZERO;
    }
    // The friction acts in the body's centre-of-mass plane for one step after a roll
    // stopped, and in its last kinetic step too (its relative speed below what the
    // kinetic torque took off in the step before, rolling without slip, the friction
    // braking the body): the contacts of a body on joints (a cart's wheels) do not all
    // stop in the same step, and those still rolling would carry their stale braking
    // friction into the step that stops the body.
    let stops_next = !SLIDE
        && s.roll == Mode::Kinetic
        && s.slide == Mode::Static
        && s.kinetic_drop[0] > 0.0
        && wt.length() < s.kinetic_drop[0]
        && friction_brakes(pair, rbs(), params);
    // (Only a body that rolls without slip: a roll that stops while the body slides, a
    // ball with backspin turning through zero, keeps the friction's moment.)
    // Both only for a body on this one support (the narrow-phase walk only for a candidate).
    let stopping = (was_rolling && s.roll == Mode::Static) || stops_next;
    let radius = if stopping { 0.0 } else { hold_radius([b1, b2], [k1, k2], point, normal) };
    let alone = (stopping || radius > 0.0) && touches_nothing_else(narrow_phase, [c1, c2], rbs());
    let roll_stopped = stopping && alone;
    let plan = &mut *c.plan;
    plan.roll_stopped = roll_stopped;
    plan.hold_radius = if alone { radius } else { 0.0 };
    // A held rolling contact whose roll motor left it slipping at the end of the step (by
    // at most `tol`, the motor's turn in a step): its friction holds that slip's opposite in
    // the next step, so that the step ends rolling.
    s.roll_fix = if held
        && plan.hold_radius > 0.0
        && wt.length() * dt > crate::rolling::HOLD_TURN
        && !(returned || (unloaded_before && loaded))
        && s.joint.is_some()
        && s.slide == Mode::Static
        && s.roll == Mode::Kinetic
        && tol > 0.0
    {
        let fix = (s.roll_fix - slip).clamp_length_max(tol);
        if finite(fix) {
            fix
        } else {
            Vector::ZERO
        }
    } else {
        Vector::ZERO
    };
    // On a multibody link the offset stays zero: the impulses rapier keeps for such a
    // contact do not describe its friction (a rolling multibody cart's wheels show lateral
    // warm-start friction at μ times the normal one), and with an offset from them the
    // cart's chassis moved at up to 9.7e-5 m/s after its stop (1.5e-6 without).
    plan.stop_offset = if roll_stopped && !any_on_multibody(view.multibody_links, [par1, par2]) {
        stop_offset(pair, rbs(), point, normal, s.roll_axis, params)
    } else {
        Vector::ZERO
    };
    // While the spin is held, its deflection is the bodies' relative turn about the
    // normal since the contact began, from their poses: the first step's turn is not
    // ω·dt (rapier moves the body in substeps, the spin-up with them), and the pull-back
    // then returns the body to where it was set down. The hold's slip test keeps the
    // velocity count (it allows for the first step's unresisted spin-up).
    let held_spin = (!STEADY && s.hold & HOLD_SPIN != 0).then(|| {
        let [rb1, rb2] = rbs();
        let rot = |rb: Option<&RigidBody>, onset: Rotation| match rb {
            Some(rb) if !rb.is_fixed() => *rb.rotation() * onset.inverse(),
            _ => Rotation::IDENTITY,
        };
        let t = (rot(rb2, s.onset_rot[1]) * rot(rb1, s.onset_rot[0]).inverse()).to_scaled_axis();
        if finite(t) {
            t.dot(normal)
        } else {
            0.0
        }
    });
    // Spin (as the roll: an unloaded step does not end a spin).
    let spin_on = d.spin_static > 0.0;
    let spin_accumulate = |defl: f32| {
        let next = defl + wn * dt;
        (next, next.abs() as f64)
    };
    // (As the roll.)
    mechanism_step(
        SLIDE || (s.spin == Mode::Static && !(loaded && spin_on)),
        (!STEADY, new.is_some()),
        (&mut s.hold, HOLD_SPIN, &mut s.hold_onset[1]),
        (&mut s.spin, &mut s.spin_defl),
        (loaded && spin_on, d.spin_static, d.spin_static),
        (
            wn.abs(),
            spin_eps,
            wn.abs() <= spin_eps || (loaded && !spin_on),
            bounds[2].is_none_or(|b| slipping(b, wn.abs(), spin_eps, &mut s.last_slip, 1)),
        ),
        spin_accumulate,
    );
    if let (Some(t), Mode::Static) = (held_spin, s.spin) {
        s.spin_defl = t;
    }
    // Settled (see `settle`): every mechanism sticks (no onset hold), the slide
    // deflection is within half its static threshold (the anchor pull-back, which only
    // the hook applies, is not needed yet), the slip is below ten slip speeds, or the
    // contact carries no load, or the deflection stays within half the threshold over
    // one more step at this slip (no pull-back is needed in that step either, and an
    // unloaded contact has no deflection: a stack's rebound rocks the cubes, and their
    // relative turn shows at the faces as 1–4 cm/s of slip for a few steps while the
    // contacts stick), and a curved contact's relative roll and spin are below their
    // slip speeds.
    // The half-threshold tests do not judge a contact's first loaded step (a landing):
    // its normal force is the step's average of a load that began during the step,
    // and its deflection is the tangential motion over the whole step, most of it
    // before the touch. The threshold from that force is far below the one of the load
    // the contact takes on (a cube landing on a stack: 55–230 N in that step, 4.6–8.2 kN
    // in the next), and the test would put the contact back on the hook for a pull-back
    // that the next step's threshold does not ask for. The stick → slip test still
    // judges it: a deflection past the full threshold turns the contact kinetic.
    let landing = unloaded_before && loaded;
    // A contact that slides (kinetic) while it neither rolls nor spins is settled too: the
    // hook's whole work for it is μk, which a pair rapier recycles keeps (see `settle`).
    let was_settled = s.settled;
    s.settled = (SLIDE || (s.roll == Mode::Static && s.spin == Mode::Static && s.hold == 0))
        && (s.slide == Mode::Kinetic
            || landing
            || ((s.slide_defl.length() as f64) <= 0.5 * d.slide_static
                && (slip.length() <= SETTLE_SLIP * slip_speed
                    || !loaded
                    || ((s.slide_defl + slip * dt).length() as f64) <= 0.5 * d.slide_static)))
        && (wt.length() <= roll_eps || roll_eps <= slip_speed * 1e-3)
        && (wn.abs() <= spin_eps || spin_eps <= slip_speed * 1e-3);
    // A sliding contact off the hook keeps the μk the hook wrote at the pair's last full
    // update only while rapier recycles the pair: while its colliders' relative pose
    // stays within `contact_recycle_distance` of that update's (translation plus the
    // relative turn times the larger collider's extent) and each body turned less than
    // acos 0.98 ≈ 11.5° since. Then rapier updates it in full with the colliders'
    // combined friction, μs. So the contact counts as settled only while bounds on both
    // (the path lengths since its last step on the hook) are within half of rapier's.
    // (Bounded only while settled otherwise: an unsettled contact is on the hook in the
    // next step, which starts the bounds again.)
    if s.settled && s.slide == Mode::Kinetic {
        let (step_motion, hooked) = match (colliders.get(c1), colliders.get(c2)) {
            (Some(col1), Some(col2)) => (
                pair_motion(rbs(), [col1, col2], &mut s.extent, dt),
                (col1.active_hooks() | col2.active_hooks()).contains(ActiveHooks::MODIFY_SOLVER_CONTACTS),
            ),
            _ => ([f32::INFINITY; 2], true),
        };
        // A step on the hook began with a full update of the pair.
        let since = if hooked { [0.0; 2] } else { s.off_motion };
        s.off_motion = [since[0] + step_motion[0], since[1] + step_motion[1]];
        let recycle = if params.contact_recycling { params.contact_recycle_distance() } else { 0.0 };
        s.settled &= s.off_motion[0] <= 0.5 * recycle && s.off_motion[1] <= 0.5 * RECYCLE_TURN;
    }
    let (sd, rd) = (s.slide_defl, s.roll_defl);
    // (Slide only: the roll and spin deflections were set to zero above.)
    let finite_defl =
        if SLIDE { sd.is_finite() } else { all_finite([sd.x, sd.y, sd.z, rd.x, rd.y, rd.z, s.spin_defl]) };
    if !finite_defl {
        s.slide_defl = Vector::ZERO;
        s.roll_defl = Vector::ZERO;
        s.spin_defl = 0.0;
    }
    // Plan the next step now, while this contact's bodies and colliders are at hand
    // (Contensou contacts are planned by before_step from the velocities the step starts
    // from). A slide-only contact that was settled and stays settled keeps its plan (μs,
    // no pull-back, no motor: what `plan_contact` would make of it again) while the
    // masses are valid.
    let plan = &*c.plan;
    let mass_ok = |h: Option<RigidBodyHandle>, b: &BodyNow| h.is_none() || b.is(MASS_OK);
    let masses_valid = mass_ok(par1, b1) && mass_ok(par2, b2);
    let keep = was_settled
        && s.settled
        && s.slide == Mode::Static
        && masses_valid
        && view.settings.unhook_settled
        && !s.pending
        && (SLIDE || (s.kappa_const && s.joint.is_none()))
        && s.roll_cap == 0.0
        && s.spin_cap == 0.0
        && (SLIDE || (d.roll_capacity(s.roll) == 0.0 && d.spin_capacity(s.spin) == 0.0))
        && !plan.stock
        && !plan.collapse
        && !plan.roll_stopped
        && plan.tangent_velocity == Vector::ZERO
        && plan.mu == s.material.mu_s() as f32;
    if SLIDE && plan_ok && !keep {
        super::plan::plan_slide(&mut c, view, [par1, par2], bodies, dt, masses_valid, fx);
    } else if plan_ok && s.contensou_model.is_none() && !keep {
        super::plan::plan_contact(
            &mut c,
            view,
            colliders,
            [par1, par2],
            bodies,
            anchor.as_ref(),
            dt,
            Some(&d),
            masses_valid,
            fx,
        );
    }
}
/// The bytes of a `ContactManifold` `after_step` reads: its points and its data up to the
/// relative dominance (rapier 0.35: 116 of 160).
const MANIFOLD_READ: usize = std::mem::offset_of!(ContactManifold, data) + 96;

/// One moving contact for [`update`]: its slot, its pair, the pair's record if the contact is new
/// in this step, and its bodies as read in this step.
type ContactNow<'a> = (Slot<'a>, (&'a ContactPair, Option<&'a NewPair>), (&'a BodyNow, &'a BodyNow));

/// What every contact's update in one `after_step` reads (see [`update`]).
struct StepCtx<'a> {
    params: &'a IntegrationParameters,
    bodies: &'a RigidBodySet,
    colliders: &'a ColliderSet,
    narrow_phase: &'a NarrowPhase,
    step: u64,
    /// The step's time step (0 when not finite and positive: `plan_ok` false).
    dt: f32,
    inv_dt: f32,
    plan_ok: bool,
    slip_speed: f32,
    anchor: Option<(RigidBodyHandle, Pose)>,
    /// The conveyor velocities the user's hook set, sorted by slot.
    belts: &'a [(u32, Vector)],
}

impl StepCtx<'_> {
    /// The mean conveyor velocity the user's hook set on contact `slot` (zero if none).
    fn belt_of(&self, slot: usize) -> Vector {
        let belts = self.belts;
        if belts.is_empty() {
            return Vector::ZERO;
        }
        let lo = belts.partition_point(|b| (b.0 as usize) < slot);
        let hi = belts.partition_point(|b| (b.0 as usize) <= slot);
        if hi == lo {
            return Vector::ZERO;
        }
        belts[lo..hi].iter().map(|b| b.1).sum::<Vector>() / (hi - lo) as f32
    }
}

/// One step of a slide, roll or spin mechanism (bit `bit` of the onset hold `hold`, its first
/// step's deflection `onset`): none at all when `off` (the contact has no such mechanism, or it
/// sticks while unloaded or off: no deflection, no hold), else the onset hold's step while it
/// is held (`may_hold`: the contact may be; `first_step`: its first step) and the stick/slip
/// machine's otherwise.
/// `(loaded, threshold, release)`: whether it carries load, its static threshold and the
/// deflection within which a hold ends (see `hold_step`); `(speed, settle_speed, settled)`: its
/// relative speed, the speed below which it counts as stopped, and whether a kinetic mechanism
/// returns to static, and whether it slips: its friction or motor row reached its bound (see
/// [`advance_mode`], `slipping`).
#[inline(always)]
fn mechanism_step<D: Copy + Default, F: Fn(D) -> (D, f64) + Copy>(
    off: bool,
    (may_hold, first_step): (bool, bool),
    (hold, bit, onset): (&mut u8, u8, &mut f32),
    (mode, deflection): (&mut Mode, &mut D),
    (loaded, threshold, release): (bool, f64, f64),
    (speed, settle_speed, settled, bound_reached): (f32, f32, bool, bool),
    accumulate: F,
) {
    if off {
        *hold &= !bit;
        *deflection = D::default();
        return;
    }
    // The onset holds are rare: a mechanism whose bit is clear goes to `advance_mode` without
    // evaluating the hold's arguments.
    let held = may_hold
        && *hold & bit != 0
        && hold_step(
            hold,
            bit,
            onset,
            first_step,
            (mode, deflection),
            loaded,
            (threshold, release),
            (speed, settle_speed),
            accumulate,
        );
    if !held {
        advance_mode(mode, deflection, loaded, threshold, settled, bound_reached, accumulate);
    }
}

/// Whether the slide friction, the roll rows and the spin row of a contact reached their bounds
/// in the step (`[slide, roll, spin]`), for a contact of a dynamic body on the user's joints
/// (impulse or multibody; any other contact: all true).
///
/// Such a contact gets no anchor pull-back (see `plan`), and rapier moves a held object a
/// little in the step a load comes on (a 0.2 kg box gripped by two pads at 1.02 times the
/// analytic hold force, on multibody fingers, moved 0.42 mm in the step its weight came on
/// at dt = 1/60, against a static threshold `μs N/K_E` of about 10 µm): its deflection passes
/// the threshold while the constraint holds. A slip is the constraint failing to hold, so
/// the mechanism turns kinetic only while its bound was reached (and, see `slipping`, its
/// speed does not drop): the friction impulse of the last substep at least [`BOUND_REACHED`]
/// of the friction coefficient times its normal impulse, the motor row's impulse at least
/// that share of its torque bound times the substep.
fn bounds_reached(
    view: &StoreView<'_>,
    parents: [Option<RigidBodyHandle>; 2],
    rbs: [Option<&RigidBody>; 2],
    (pair, params, mu): (&ContactPair, &IntegrationParameters, f32),
    joint: Option<ImpulseJointHandle>,
    joints: &ImpulseJointSet,
) -> [bool; 3] {
    if !super::plan::contact_on_joints(view, parents, rbs, joints) {
        return [true; 3];
    }
    // A multibody link's contacts are rapier's generic constraints, which keep each point's
    // own friction impulse (the manifold's is their sum; a box on a flat pad read a quarter
    // of its bound through `warm_impulses`' per-manifold average).
    let generic = parents.iter().flatten().any(|&h| find_link(view.multibody_links, h).is_some());
    let (n, f) = if generic { point_impulses(pair) } else { warm_impulses(pair, params) };
    let slide = !(mu.is_finite() && n > 0.0) || f.length() >= BOUND_REACHED * mu * n;
    let substep = params.dt / params.num_solver_iterations.max(1) as f32;
    let row = |jj: &ImpulseJoint, axis: JointAxis, mask: JointAxesMask| {
        let m = &jj.data.motors[axis as usize];
        !jj.data.motor_axes.contains(mask) || m.impulse.abs() >= BOUND_REACHED * m.max_force * substep
    };
    match joint.and_then(|h| tribo_joint(joints, h)) {
        Some(jj) => [
            slide,
            row(jj, JointAxis::AngY, JointAxesMask::ANG_Y) || row(jj, JointAxis::AngZ, JointAxesMask::ANG_Z),
            row(jj, JointAxis::AngX, JointAxesMask::ANG_X),
        ],
        None => [slide, true, true],
    }
}

/// Whether a slide (`k` = 0) or spin (`k` = 1) of a contact of a body on the user's joints
/// slips: its bound was reached (`bound`) and its speed `speed` did not drop, above `eps`, in
/// this step and the one before (`last`: the speeds and that test after the previous step).
/// Static friction at its bound that takes speed off holds: the solver's creep in the step a
/// load came on (a box gripped at 1.02 times the analytic hold force moved at 15 mm/s after
/// that step at dt = 1/60, and slowed from there), or a light link's joint giving way for a
/// step, is not a slip.
fn slipping(bound: bool, speed: f32, eps: f32, last: &mut ([f32; 2], [bool; 2]), k: usize) -> bool {
    let rising = bound && last.0[k] > eps && speed >= last.0[k];
    let slips = rising && last.1[k];
    (last.0[k], last.1[k]) = (speed, rising);
    slips
}

/// The share of its bound a friction or motor impulse reaches when the bound holds it back
/// (see [`bounds_reached`]): rapier's projected impulses end at their bound to within f32
/// rounding (the box above, held at 1.02 times its hold force, used 0.996 of its friction
/// bound in its load step).
const BOUND_REACHED: f32 = 0.9999;

/// Whether the one dynamic side of the contact between `cols` (a body with a single collider)
/// touches nothing else: the body whose roll stopped is then held by this contact alone, and
/// its friction may act in the body's centre-of-mass plane for a step
/// (`hooks::friction_in_com_plane`) without changing how the load is shared between contacts.
fn touches_nothing_else(
    narrow_phase: &NarrowPhase,
    cols: [ColliderHandle; 2],
    rbs: [Option<&RigidBody>; 2],
) -> bool {
    let dynamic = |k: usize| rbs[k].filter(|b| b.is_dynamic()).map(|b| (cols[k], b));
    let Some((c, rb)) = (match (dynamic(0), dynamic(1)) {
        (Some(d), None) | (None, Some(d)) => Some(d),
        _ => None,
    }) else {
        return false;
    };
    rb.colliders().len() == 1
        && narrow_phase.contact_pairs_with(c).filter(|p| p.has_any_active_contact()).nth(1).is_none()
}

/// The largest slip the roll motor of contact `s` (bound `roll_cap` about `roll_axis`, as
/// planned for this step) gives its bodies `rbs` at the contact `point` in a step of `dt`: for
/// each dynamic body, `|I⁻¹ T dt × a|` with `a` the arm from its centre of mass.
fn motor_slip(s: &PairState, rbs: [Option<&RigidBody>; 2], point: Vector, dt: f32) -> f32 {
    let impulse = s.roll_axis * (s.roll_cap * dt);
    let turn = |rb: Option<&RigidBody>| match rb.filter(|b| b.is_dynamic()) {
        Some(b) => (b.mass_properties().effective_world_inv_inertia * impulse)
            .cross(point - b.center_of_mass())
            .length(),
        None => 0.0,
    };
    let slip = turn(rbs[0]) + turn(rbs[1]);
    if slip.is_finite() {
        slip
    } else {
        0.0
    }
}

/// The radius of a round body's rolling contact, which may be held in the next step (see
/// `crate::rolling`), or 0: exactly one side is dynamic and its surface is round about its
/// centre of mass along the rolling direction (curvatures `kappas`, the contact at `point` with
/// `normal` from the first side to the second). (The hold also needs the body on this one
/// support and turning.)
#[inline]
fn hold_radius(
    bodies: [&BodyNow; 2],
    kappas: [crate::curvature::Curvature; 2],
    point: Vector,
    normal: Vector,
) -> f32 {
    let side = match (bodies[0].is(DYNAMIC), bodies[1].is(DYNAMIC)) {
        (true, false) => 0,
        (false, true) => 1,
        _ => return 0.0,
    };
    let out = if side == 0 { normal } else { -normal };
    let depth = (Vec3A::from(point) - bodies[side].com).dot(Vec3A::from(out));
    let kappa = kappas[side].directional;
    if crate::rolling::is_round(kappa, depth) {
        (1.0 / kappa) as f32
    } else {
        0.0
    }
}

/// The tangential offset of a stopped roll's solver contacts in the step its friction acts in
/// the body's centre-of-mass plane (`hooks::friction_in_com_plane`): with it, the contacts sit
/// where the line of action of the contact's normal force and its friction along the roll axis
/// `axis` (across the rolling direction) crosses that plane, so that force keeps its moment
/// about the centre of mass and only the friction along the rolling direction (the stale
/// deceleration) loses its own. A body on joints carries that moment through them: the loaded
/// cart's wheels carry a lateral friction stress through their axles. From the impulses rapier
/// keeps to warm-start the next step (both its last substep's): with `d` the centre of mass'
/// height over the contact along the normal, `N` the normal and `f` the friction impulse along
/// the axis on the body, the offset is `d f / N` (the same for either side, the normal impulse
/// pushing the second body along the normal). Zero unless one side is dynamic and the normal
/// impulse is positive.
fn stop_offset(
    pair: &ContactPair,
    rbs: [Option<&RigidBody>; 2],
    point: Vector,
    normal: Vector,
    axis: Vector,
    params: &IntegrationParameters,
) -> Vector {
    let dynamic = |k: usize| rbs[k].filter(|b| b.is_dynamic());
    let Some(rb) = (match (dynamic(0), dynamic(1)) {
        (Some(b), None) | (None, Some(b)) => Some(b),
        _ => None,
    }) else {
        return Vector::ZERO;
    };
    // rapier's friction impulse acts on the first collider's body, the normal one pushes the
    // second along the normal: on either side f / N = -(friction on body 1) / (normal impulse).
    // The simplified friction model (rapier's default) has one friction impulse per manifold,
    // stored on each of its points; the Coulomb model one per point.
    let (n, f) = warm_impulses(pair, params);
    let axis = axis - normal * axis.dot(normal);
    let (l2, d) = (axis.length_squared(), (rb.center_of_mass() - point).dot(normal));
    let s = -axis * (f.dot(axis) / l2) * (d / n);
    if n > 0.0 && l2 > 0.0 && finite(s) {
        s
    } else {
        Vector::ZERO
    }
}

/// The normal and friction impulses rapier keeps to warm-start the next step of `pair` (its last
/// substep's): the sum of the normal impulses and the friction impulse in world space (the
/// impulse on the first body; the second gets its opposite). The
/// simplified friction model (rapier's default) has one friction impulse per manifold, stored on
/// each of its points; the Coulomb model one per point.
fn warm_impulses(pair: &ContactPair, params: &IntegrationParameters) -> (f32, Vector) {
    let per_manifold = params.friction_model == crate::rapier3d::dynamics::FrictionModel::Simplified;
    let (mut n, mut f) = (0.0f32, Vector::ZERO);
    for m in pair.solver_manifolds() {
        let (mut fm, mut count) = (Vector::ZERO, 0.0f32);
        for c in &m.data.solver_contacts {
            if let Some(p) = m.points.get(c.contact_indices()[0] as usize) {
                n += p.data.warmstart_impulse.max(0.0);
                fm += p.data.warmstart_tangent_world;
                count += 1.0;
            }
        }
        f += if per_manifold && count > 0.0 { fm / count } else { fm };
    }
    (n, f)
}

/// The normal and friction impulses of `pair`'s last substep, summed over its solver contacts'
/// points (rapier's generic constraints keep each point's own friction impulse).
fn point_impulses(pair: &ContactPair) -> (f32, Vector) {
    let (mut n, mut f) = (0.0f32, Vector::ZERO);
    for m in pair.solver_manifolds() {
        for c in &m.data.solver_contacts {
            if let Some(p) = m.points.get(c.contact_indices()[0] as usize) {
                n += p.data.warmstart_impulse.max(0.0);
                f += p.data.warmstart_tangent_world;
            }
        }
    }
    (n, f)
}

/// Whether the friction of `pair` brakes its one dynamic body: the friction impulse on that body
/// (from the impulses rapier warm-starts the next step with) points against the velocity of its
/// centre of mass relative to the other side. A roll the kinetic torque brings to rest
/// decelerates the body through that friction; a roll that reverses under a load (a ball
/// rolling up a slope, whose friction pushes it up the slope) is not braked by it.
fn friction_brakes(pair: &ContactPair, rbs: [Option<&RigidBody>; 2], params: &IntegrationParameters) -> bool {
    let dynamic = |k: usize| rbs[k].filter(|b| b.is_dynamic());
    let (rb, sign, other) = match (dynamic(0), dynamic(1)) {
        (Some(b), None) => (b, 1.0f32, rbs[1]),
        (None, Some(b)) => (b, -1.0f32, rbs[0]),
        _ => return false,
    };
    let (_, f) = warm_impulses(pair, params);
    // The body's velocity relative to its support (a moving platform), and the friction impulse
    // on the body.
    let v = rb.linvel() - other.map_or(Vector::ZERO, |o| o.velocity_at_point(rb.center_of_mass()));
    sign * f.dot(v) < 0.0
}

/// Whether every element of `v` is finite, with one branch: `x - x` is zero for a finite `x`
/// and NaN for an infinite or NaN one.
#[inline(always)]
#[allow(clippy::eq_op)] // `x - x` is the test
fn all_finite<const N: usize>(v: [f32; N]) -> bool {
    v.iter().fold(0.0f32, |acc, &x| acc + (x - x)) == 0.0
}

/// The bodies the anchors of manifold `m`'s solver contacts are mapped to the world with, for
/// side 1 and side 2 (`b1`, `b2`: the contact's bodies): [`BodyNow::WORLD`], which leaves an
/// anchor as it is, for a side without a body or whose anchors are in world space already
/// (rapier's solver treats the side with the lower dominance as fixed and keeps its anchors in
/// world space).
#[inline(always)]
fn manifold_frames<'a>(m: &ContactManifold, b1: &'a BodyNow, b2: &'a BodyNow) -> (&'a BodyNow, &'a BodyNow) {
    let dominance = m.data.relative_dominance;
    let world = &BodyNow::WORLD;
    (
        if m.data.rigid_body1.is_some() && dominance <= 0 { b1 } else { world },
        if m.data.rigid_body2.is_some() && dominance >= 0 { b2 } else { world },
    )
}

/// The largest turn of a body (rad) since a pair's last full update at which rapier still
/// recycles the pair: its bound cos Δθ > 0.98.
const RECYCLE_TURN: f32 = 0.2;

/// Bounds on how far a step at the current velocities moves two colliders' relative pose (as
/// rapier measures it for contact recycling: the change of the second collider's pose in the
/// first's frame, its translation plus its turn times the larger collider's extent) and the
/// larger of the bodies' turns (rad).
/// `extent` caches the larger collider's extent (0: not known).
fn pair_motion(rbs: [Option<&RigidBody>; 2], cols: [&Collider; 2], extent: &mut f32, dt: f32) -> [f32; 2] {
    let at = |k: usize| cols[k].position().translation;
    let v = |k: usize| rbs[k].map_or(Vector::ZERO, |b| b.velocity_at_point(at(k)));
    let w = |k: usize| rbs[k].map_or(Vector::ZERO, |b| b.angvel());
    if *extent == 0.0 {
        *extent = cols
            .iter()
            .map(|c| {
                let aabb = c.shape().compute_local_aabb();
                aabb.mins.length().max(aabb.maxs.length())
            })
            .fold(0.0f32, f32::max);
    }
    let extent = *extent;
    let rate =
        (v(1) - v(0)).length() + w(0).length() * (at(1) - at(0)).length() + (w(1) - w(0)).length() * extent;
    let turn = w(0).length().max(w(1).length());
    [rate * dt, turn * dt]
}
