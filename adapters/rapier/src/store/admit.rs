//! New contacts: the state `after_step` creates for each pair the hook reported without one
//! (sorted into a canonical order first), when the pair touches and has a moving body and a
//! tribo material. A new contact starts sticking unless it began sliding or turning (the hook's
//! [`Onset`]), held at its onset (see `modes::hold_step`).

use super::*;

impl TriboRapier {
    /// State for the new contacts the hook reported (`new_pairs`, in canonical order; a pair may
    /// be reported once per manifold), found in the narrow phase through `pair_of`. Each
    /// contact created is recorded in `new_info`, in slot order.
    pub(super) fn admit<'n>(
        &mut self,
        new_pairs: &[NewPair],
        pair_of: &impl Fn(ColliderHandle, ColliderHandle, u32) -> Option<(&'n ContactPair, u32)>,
        bodies: &RigidBodySet,
        colliders: &ColliderSet,
        new_info: &mut Vec<NewPair>,
    ) {
        let epoch = self.materials.epoch;
        for p in new_pairs {
            let (c1, c2) = (p.c1, p.c2);
            let k = key(c1, c2);
            if self.contacts.index.contains_key(&k) {
                continue;
            }
            let Some((pair, edge)) = pair_of(c1, c2, u32::MAX) else { continue };
            let (Some(col1), Some(col2)) = (colliders.get(c1), colliders.get(c2)) else { continue };
            let moving = |c: &Collider| is_moving_body(c.parent().and_then(|b| bodies.get(b)));
            if !(moving(col1) || moving(col2)) || !pair.has_any_active_contact() {
                continue;
            }
            let Some((material, contensou_model)) = self.materials.contact_material((c1, col1), (c2, col2))
            else {
                continue;
            };
            let kappa_const = [col1, col2].iter().all(|c| crate::curvature::direction_independent(c.shape()));
            self.contacts.states.push(new_state(
                p,
                [col1, col2],
                edge,
                (material, contensou_model),
                epoch,
                kappa_const,
            ));
            self.contacts.warm.push(AtomicU32::new(0));
            let mu = if p.sliding { material.mu_k() } else { material.mu_s() };
            self.contacts.plans.push(Plan {
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
            self.contacts.index.insert(k, (self.contacts.states.len() - 1) as u32);
            new_info.push(*p);
            // Its bodies turn free of rapier's angular speed cap from the next step (see
            // `angular_cap`).
            for parent in [col1.parent(), col2.parent()] {
                if parent.is_some_and(|b| is_dynamic_body(bodies.get(b))) {
                    self.note_turning_body(parent);
                }
            }
        }
    }
}

/// The state of a contact new in this step (`p`: the hook's record), between colliders `cols`
/// with its pair at `edge` of the narrow phase's graph, its combined material and Contensou
/// model, the material epoch, and whether its curvatures are independent of the direction.
fn new_state(
    p: &NewPair,
    [col1, col2]: [&Collider; 2],
    edge: u32,
    (material, contensou_model): (Material, Option<crate::contensou::Contensou>),
    epoch: u64,
    kappa_const: bool,
) -> PairState {
    let (c1, c2) = (p.c1, p.c2);
    PairState {
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
        // The observer's first load estimate spans the contact's first step.
        torque: super::torques::RowTorques::from_onset(p.w0),
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
    }
}
