//! Roll and spin resistance as torques held over the next step ([`RollSpin::Torques`],
//! docs/rapier.md §8.1): each of the motor's bounded rows (spin about the normal, roll about
//! the rolling axis and across it) becomes a torque chosen by an observer of the load
//! ([`tribo::resistance::Row`]), applied to the contact's dynamic bodies by `before_step` and
//! taken back by the next one.
//!
//! Reads: the plan's rows (axes, targets, bounds), the bodies' velocities and mass properties.
//! Writes: the contact's [`RowTorques`]; the bodies' user torques (only in
//! [`TriboRapier::apply_torques`] and [`TriboRapier::take_back_torques`]).

use super::*;
use tribo::resistance::Row;

/// What `before_step` added to a body: the body, the (force, torque) added, and the body's
/// (user force, user torque) after adding them.
pub(super) type Applied = (RigidBodyHandle, (Vector, Vector), (Vector, Vector));

/// The forces and torques table: what the last `before_step` added to each body (taken back by
/// the next), and each dynamic body's number of contacts then (read by the plans of the
/// following `after_step`), with its summed wrench.
#[derive(Clone, Default)]
pub(super) struct Torques {
    pub applied: Vec<Applied>,
    /// Per body with a contact: its handle, its number of contacts and its summed (force,
    /// torque), in slot order of first appearance.
    bodies: Vec<(RigidBodyHandle, u32, (Vector, Vector))>,
    /// A body's place in `bodies` (by [`body_key`]).
    index: FastMap<u64, usize>,
}

impl Torques {
    /// A table with the last step's forces and torques to take back (a snapshot's).
    #[cfg(feature = "serde-serialize")]
    pub(super) fn with_applied(applied: Vec<Applied>) -> Self {
        Torques { applied, ..Default::default() }
    }

    /// The number of contacts of the body `p` at the last `before_step` (1 if unknown).
    pub(super) fn contacts_of(&self, p: Option<RigidBodyHandle>) -> u32 {
        p.and_then(|h| self.index.get(&body_key(h))).map_or(1, |&k| self.bodies[k].1)
    }
}

/// One contact's torque for the next step and what its observer keeps.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde-serialize", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct RowTorques {
    /// Torque on the second side for the next step (world); the first side takes its opposite.
    pub torque: Vector,
    /// Relative angular velocity (second side's minus first's) when it was chosen.
    pub omega: Vector,
    /// The observer has a last step (its load estimate is defined).
    pub started: bool,
    /// A torque was planned (the first one also carries what the contact's first step, which
    /// ran without it, lacked).
    #[cfg_attr(feature = "serde-serialize", serde(default))]
    pub planned: bool,
    /// What each side (first, second) is given for the next step: a force at its centre of mass
    /// and a torque (see [`side_wrench`]).
    #[cfg_attr(feature = "serde-serialize", serde(default))]
    pub wrench: [(Vector, Vector); 2],
}

/// The rows of one contact's plan: axes (unit, world: spin about the normal, roll about the
/// rolling axis, roll across it), the rates each step should end at, the torque bounds, and
/// the effective inertias of the relative rotation about each axis.
pub(super) struct Rows {
    pub axes: [Vector; 3],
    pub targets: [f32; 3],
    pub caps: [f32; 3],
    pub inertia: [f32; 3],
}

impl RowTorques {
    /// The torque of the next step for `rows` at the relative angular velocity `w` now, and
    /// the wrenches that carry it to the bodies `sides` (see [`side_wrench`]).
    pub(super) fn plan(&mut self, w: Vector, rows: &Rows, dt: f32, sides: &Sides<'_>) {
        let mut torque = Vector::ZERO;
        for k in 0..3 {
            let (u, cap, i) = (rows.axes[k], rows.caps[k], rows.inertia[k]);
            if !(cap > 0.0 && i > 0.0) {
                continue;
            }
            let row = Row {
                omega: w.dot(u) as f64,
                last: self.started.then(|| (self.omega.dot(u) as f64, self.torque.dot(u) as f64)),
                target: rows.targets[k] as f64,
                inertia: i as f64,
                bound: cap as f64,
                dt: dt as f64,
            };
            torque += u * row.torque() as f32;
        }
        let wrench = [side_wrench(sides, 0, -torque, &rows.axes), side_wrench(sides, 1, torque, &rows.axes)];
        *self = RowTorques { torque, omega: w, started: true, planned: true, wrench };
    }

    /// A new contact's observer: its first step began at the relative angular velocity `w0`,
    /// without torque.
    pub(super) fn from_onset(w0: Vector) -> Self {
        RowTorques { omega: w0, started: w0.is_finite(), ..RowTorques::default() }
    }

    /// [`plan`](Self::plan) with the rows' inertias from `sides`, or no torque (and no
    /// observation kept) without rows.
    pub(super) fn plan_rows(&mut self, w: Vector, rows: Option<Rows>, dt: f32, sides: &Sides<'_>) {
        match rows {
            Some(mut rows) => {
                rows.inertia = rows.axes.map(|u| row_inertia(u, sides));
                self.plan(w, &rows, dt, sides);
            }
            None => self.clear(),
        }
    }

    /// The friction coefficient `mu` leaves rapier's friction of a contact with normal force
    /// `n` and roll in `roll` mode: the rolling wrench's force does part of the friction's work
    /// (it takes the centre along), so while the roll slips the friction keeps what is left of
    /// its bound, and the contact still slips where the friction alone could not hold it (the
    /// T3a sphere, its roll kinetic, slides down 35° instead of rolling). A sticking roll keeps
    /// the whole bound.
    pub(super) fn friction_left(&self, mu: f32, n: f32, roll: Mode) -> f32 {
        let force = self.wrench[0].0.length() + self.wrench[1].0.length();
        if roll == Mode::Kinetic && force > 0.0 && n > 0.0 && mu > 0.0 {
            (mu - force / n).max(0.0)
        } else {
            mu
        }
    }

    /// No torque, and no observation kept.
    pub(super) fn clear(&mut self) {
        *self = RowTorques::default();
    }
}

/// A contact's bodies as its rows see them: each side's body (if dynamic), its number of
/// contacts, the contact point, and whether the bodies turn about it (see [`row_inertia`]).
pub(super) struct Sides<'a> {
    pub rbs: [Option<&'a RigidBody>; 2],
    pub contacts: [u32; 2],
    pub point: Vector,
    pub normal: Vector,
    pub about_point: bool,
}

impl<'a> Sides<'a> {
    /// The sides of a contact at `point` with `normal`, its slide in `slide` mode (a sliding
    /// contact turns its bodies about their centres, a sticking one about it).
    pub(super) fn new(
        rbs: [Option<&'a RigidBody>; 2],
        contacts: [u32; 2],
        (point, normal): (Vector, Vector),
        slide: Mode,
    ) -> Self {
        Sides { rbs, contacts, point, normal, about_point: slide == Mode::Static }
    }

    /// The arm from the contact to a body's centre of mass `com`, along the normal: the
    /// contact point of a rolling round body lies under its centre (the measured point trails
    /// it by the step's travel).
    fn arm(&self, com: Vector) -> Vector {
        self.normal * self.normal.dot(com - self.point)
    }
}

/// The force at the centre of mass and the torque that give side `k`'s body the row torque
/// `t` (about axes `axes`) about the contact point: for a body that turns about this contact
/// alone (it rolls without slip there), per axis `u`, the angular acceleration
/// `α = t_u / (I_u + m |u × r|²)` about the point (`r` from the point to the centre of mass)
/// is given as the torque `I_u α u` and the force `m (α u) × r`, whose moment about the point
/// makes up the rest: the body decelerates rolling, and the contact's friction has nothing to
/// add (a torque alone would have it take the body's translation along through the friction,
/// which the solver's iterations leave slipping). Otherwise the torque `t` alone.
fn side_wrench(sides: &Sides<'_>, k: usize, t: Vector, axes: &[Vector; 3]) -> (Vector, Vector) {
    let Some(rb) = sides.rbs[k].filter(|b| b.is_dynamic()) else { return (Vector::ZERO, Vector::ZERO) };
    if !(sides.about_point && sides.contacts[k] <= 1) {
        return (Vector::ZERO, t);
    }
    let mp = rb.mass_properties();
    let r = sides.arm(mp.world_com);
    let m = rb.mass();
    let (mut force, mut torque) = (Vector::ZERO, Vector::ZERO);
    for &u in axes {
        let tu = t.dot(u);
        let inv_u = u.dot(mp.effective_world_inv_inertia * u);
        if tu == 0.0 || !(inv_u > 0.0 && inv_u.is_finite()) {
            continue;
        }
        let i_u = 1.0 / inv_u;
        let alpha = tu / (i_u + m * u.cross(r).length_squared());
        torque += u * (i_u * alpha);
        force += (u * (m * alpha)).cross(r);
    }
    if force.is_finite() && torque.is_finite() {
        (force, torque)
    } else {
        (Vector::ZERO, Vector::ZERO)
    }
}

/// A body handle as one number (the key of the torque table's index).
pub(super) fn body_key(h: RigidBodyHandle) -> u64 {
    let (i, g) = h.into_raw_parts();
    ((g as u64) << 32) | i as u64
}

/// The effective inertia of the relative rotation about the unit axis `u` for one of the
/// contacts of the dynamic bodies `rbs` (`parents`), which have `contacts[k]` contacts each:
/// `1/I = Σ k/I_side` over the dynamic bodies, with `I_side = 1/(u·I⁻¹u) + m |u × r|²` (`r` from
/// the contact `point` to the body's centre of mass) when the body turns about this contact
/// alone (`about_point`: it rolls or spins there without slip, and it has no other contact),
/// `I_side = 1/(u·I⁻¹u)` otherwise. Shared by `k` contacts, a body's inertia is split between
/// them: each row then takes its share of the body's load (the observer of each sees the others'
/// torques as load), and together they act as one row would (a Jacobi split). 0 without a
/// dynamic body (or with every rotation about `u` locked).
pub(super) fn row_inertia(u: Vector, sides: &Sides<'_>) -> f32 {
    let Sides { rbs, contacts, about_point, .. } = *sides;
    let mut inv = 0.0f32;
    for (rb, k) in rbs.into_iter().zip(contacts) {
        let Some(rb) = rb.filter(|b| b.is_dynamic()) else { continue };
        let mp = rb.mass_properties();
        let inv_u = u.dot(mp.effective_world_inv_inertia * u);
        if !(inv_u > 0.0 && inv_u.is_finite()) {
            continue;
        }
        let k = k.max(1) as f32;
        inv += k * if about_point && k == 1.0 {
            let r = sides.arm(mp.world_com);
            1.0 / (1.0 / inv_u + rb.mass() * u.cross(r).length_squared())
        } else {
            inv_u
        };
    }
    if inv > 0.0 && inv.is_finite() {
        1.0 / inv
    } else {
        0.0
    }
}

impl TriboRapier {
    /// Takes back the forces and torques the last `before_step` added: from each body whose
    /// user force and torque are still what they were left at (a body whose forces the user
    /// reset or changed keeps the user's).
    pub(super) fn take_back_torques(&mut self, bodies: &mut RigidBodySet) {
        for (h, (force, torque), left) in self.torques.applied.drain(..) {
            if let Some(rb) = bodies.get_mut(h) {
                if (rb.user_force(), rb.user_torque()) == left {
                    rb.add_force(-force, false);
                    rb.add_torque(-torque, false);
                }
            }
        }
    }

    /// Adds each contact's planned wrenches to its dynamic bodies, summed per body in slot
    /// order, without waking them; counts each body's contacts for the next plans.
    pub(super) fn apply_torques(&mut self, bodies: &mut RigidBodySet) {
        let table = &mut self.torques;
        table.bodies.clear();
        table.index.clear();
        // Every tracked contact, loaded or not: a count of the loaded ones changes from step to
        // step in a settling pile, and with it every row's inertia (the 1000-sphere pile then
        // fell asleep 90 steps later).
        for s in &self.contacts.states {
            let wrench =
                (s.torque.torque != Vector::ZERO && s.torque.torque.is_finite()).then_some(s.torque.wrench);
            for (k, h) in s.parents.into_iter().enumerate() {
                let Some(h) = h else { continue };
                let i = *table.index.entry(body_key(h)).or_insert(table.bodies.len());
                if i == table.bodies.len() {
                    table.bodies.push((h, 0, (Vector::ZERO, Vector::ZERO)));
                }
                let body = &mut table.bodies[i];
                body.1 += 1;
                if let Some(w) = wrench {
                    body.2 .0 += w[k].0;
                    body.2 .1 += w[k].1;
                }
            }
        }
        for &(h, _, (f, t)) in &table.bodies {
            if f == Vector::ZERO && t == Vector::ZERO {
                continue;
            }
            if let Some(rb) = bodies.get_mut(h).filter(|b| b.is_dynamic()) {
                rb.add_force(f, false);
                rb.add_torque(t, false);
                table.applied.push((h, (f, t), (rb.user_force(), rb.user_torque())));
            }
        }
    }
}
