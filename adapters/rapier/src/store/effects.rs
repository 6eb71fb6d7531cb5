//! What one contact's update and plan may change outside the contact's own data ([`Effects`]):
//! its motor joint in rapier's joint set, the turn to give back to its bodies, a diagnostic,
//! the anchor body it waits for.
//!
//! A contact's update reads rapier's sets and writes its own state and plan; everything else it
//! changes goes through an [`Effects`]. Run one contact after another ([`Direct`]), the changes
//! are made at once. Run on several threads (`parallel` feature, see `after`), each thread
//! records them ([`Deferred`]) and one ordered pass makes them, in slot order, after the
//! updates: the joint set sees the same inserts and removals in the same order as in the serial
//! run (so the same handles), and no update reads another contact's effects (its own motor only,
//! and the user's joints, which tribo does not change), so both runs are the same to the bit.

use super::give_back::{motor_turn, GiveBack};
use super::motor::MotorRows;
use super::*;

/// One contact's slot: its index, state, plan and warm-start sum (see [`TriboRapier`]'s
/// parallel vectors).
pub(super) struct Slot<'a> {
    pub(super) i: usize,
    pub(super) s: &'a mut PairState,
    pub(super) plan: &'a mut Plan,
    pub(super) warm: &'a AtomicU32,
}

/// What a contact's plan reads of the store besides its slot.
#[derive(Clone, Copy)]
pub(super) struct StoreView<'a> {
    pub(super) settings: Settings,
    /// See [`TriboRapier`]'s `user_joints`.
    pub(super) user_joints: bool,
    pub(super) multibody_links: &'a [MultibodyLink],
    /// The torque table: each body's contacts at the last `before_step` (see `torques`).
    pub(super) torques: &'a super::torques::Torques,
}

/// What a contact's update may change outside its slot (see the module docs).
pub(super) trait Effects {
    /// rapier's joint set as the step left it (the contacts' own motors as planned before).
    fn joints(&self) -> &ImpulseJointSet;
    /// Writes `rows` into tribo's motor `h` if it joins `bodies`; false if it does not (or is
    /// gone).
    fn set_motor(&mut self, h: ImpulseJointHandle, bodies: [RigidBodyHandle; 2], rows: &MotorRows) -> bool;
    /// Takes every row off motor `h` (kept: it costs the solver little without rows). False if
    /// the joint set holds no tribo motor under `h` any more (rapier removed it with one of its
    /// bodies, or the handle is the user's now): the contact then has no motor.
    #[must_use]
    fn clear_motor_rows(&mut self, h: ImpulseJointHandle) -> bool;
    /// Zeroes the non-finite impulses of motor `h`.
    fn clear_nonfinite_motor_impulse(&mut self, h: ImpulseJointHandle);
    /// Removes tribo's motor `h`.
    fn remove_joint(&mut self, h: ImpulseJointHandle);
    /// Inserts a motor joint between `bodies` for the contact in `slot`: its handle, or `None`
    /// when recorded (the ordered pass then stores the handle in the contact's state).
    fn insert_joint(
        &mut self,
        slot: usize,
        bodies: [RigidBodyHandle; 2],
        joint: GenericJoint,
    ) -> Option<ImpulseJointHandle>;
    /// An angular impulse to give back to a body at the start of the next step.
    fn give_back(&mut self, g: GiveBack);
    /// A diagnostic (reported once).
    fn report_once(&mut self, d: Diagnostic);
    /// A plan waits for the hidden anchor body.
    fn need_anchor(&mut self);
}

/// The effects made at once (one contact after another).
pub(super) struct Direct<'a> {
    pub(super) joints: &'a mut ImpulseJointSet,
    pub(super) give_back: &'a mut Vec<GiveBack>,
    pub(super) reported: &'a mut Vec<Diagnostic>,
    pub(super) diagnostics: &'a mut Vec<Diagnostic>,
    pub(super) needs_anchor: &'a mut bool,
}

impl<'a> Direct<'a> {
    /// The direct effects on `joints`, with the motor table's give-backs and anchor request and
    /// the store's diagnostics.
    pub(super) fn new(
        joints: &'a mut ImpulseJointSet,
        motors: &'a mut super::world::Motors,
        reported: &'a mut Vec<Diagnostic>,
        diagnostics: &'a mut Vec<Diagnostic>,
    ) -> Self {
        Direct {
            joints,
            give_back: &mut motors.give_back,
            reported,
            diagnostics,
            needs_anchor: &mut motors.needs_anchor,
        }
    }
}

impl Effects for Direct<'_> {
    #[inline(always)]
    fn joints(&self) -> &ImpulseJointSet {
        self.joints
    }

    #[inline(always)]
    fn set_motor(&mut self, h: ImpulseJointHandle, bodies: [RigidBodyHandle; 2], rows: &MotorRows) -> bool {
        match tribo_joint_mut(self.joints, h) {
            Some(jj) if jj.body1() == bodies[0] && jj.body2() == bodies[1] => {
                super::motor::set_motor(&mut jj.data, rows);
                true
            }
            _ => false,
        }
    }

    #[inline(always)]
    fn clear_motor_rows(&mut self, h: ImpulseJointHandle) -> bool {
        match tribo_joint(self.joints, h) {
            None => false,
            Some(jj) => {
                if !jj.data.motor_axes.is_empty() {
                    if let Some(jj) = tribo_joint_mut(self.joints, h) {
                        jj.data.motor_axes = JointAxesMask::empty();
                    }
                }
                true
            }
        }
    }

    fn clear_nonfinite_motor_impulse(&mut self, h: ImpulseJointHandle) {
        super::motor::clear_nonfinite_motor_impulse(h, self.joints);
    }

    fn remove_joint(&mut self, h: ImpulseJointHandle) {
        remove_tribo_joint(self.joints, h);
    }

    fn insert_joint(
        &mut self,
        _slot: usize,
        [b1, b2]: [RigidBodyHandle; 2],
        joint: GenericJoint,
    ) -> Option<ImpulseJointHandle> {
        Some(self.joints.insert(b1, b2, joint, false))
    }

    fn give_back(&mut self, g: GiveBack) {
        self.give_back.push(g);
    }

    fn report_once(&mut self, d: Diagnostic) {
        report_once(self.reported, self.diagnostics, d);
    }

    fn need_anchor(&mut self) {
        *self.needs_anchor = true;
    }
}

/// The motor of contact `s` acted in a step whose pair had no contact point: records (in `fx`)
/// the angular impulses it gave its bodies, to be taken back by the next `before_step` (see
/// `give_back`).
#[cold]
#[inline(never)]
pub(super) fn record_give_back<E: Effects>(
    s: &PairState,
    params: &IntegrationParameters,
    bodies: &RigidBodySet,
    fx: &mut E,
) {
    for g in motor_turn(s, params, bodies, fx.joints()).into_iter().flatten() {
        fx.give_back(g);
    }
}

/// Reports `d` unless it was reported before.
pub(super) fn report_once(reported: &mut Vec<Diagnostic>, diagnostics: &mut Vec<Diagnostic>, d: Diagnostic) {
    if !reported.contains(&d) {
        reported.push(d);
        diagnostics.push(d);
    }
}

/// One recorded effect (see [`Deferred`]).
#[cfg(feature = "parallel")]
#[derive(Clone, Debug)]
pub(super) enum Op {
    SetMotor(ImpulseJointHandle, MotorRows),
    ClearRows(ImpulseJointHandle),
    ClearNonfinite(ImpulseJointHandle),
    Remove(ImpulseJointHandle),
    Insert(u32, [RigidBodyHandle; 2], Box<GenericJoint>),
    GiveBack(GiveBack),
    Report(Diagnostic),
    NeedAnchor,
}

/// The effects recorded in slot order, for [`TriboRapier::apply`] (contacts updated on several
/// threads).
#[cfg(feature = "parallel")]
pub(super) struct Deferred<'a> {
    pub(super) joints: &'a ImpulseJointSet,
    pub(super) ops: Vec<Op>,
}

#[cfg(feature = "parallel")]
impl Effects for Deferred<'_> {
    fn joints(&self) -> &ImpulseJointSet {
        self.joints
    }

    fn set_motor(&mut self, h: ImpulseJointHandle, bodies: [RigidBodyHandle; 2], rows: &MotorRows) -> bool {
        match tribo_joint(self.joints, h) {
            Some(jj) if jj.body1() == bodies[0] && jj.body2() == bodies[1] => {
                self.ops.push(Op::SetMotor(h, *rows));
                true
            }
            _ => false,
        }
    }

    fn clear_motor_rows(&mut self, h: ImpulseJointHandle) -> bool {
        match tribo_joint(self.joints, h) {
            None => false,
            Some(jj) => {
                if !jj.data.motor_axes.is_empty() {
                    self.ops.push(Op::ClearRows(h));
                }
                true
            }
        }
    }

    fn clear_nonfinite_motor_impulse(&mut self, h: ImpulseJointHandle) {
        if tribo_joint(self.joints, h).is_some_and(|jj| jj.data.motors.iter().any(|m| !m.impulse.is_finite()))
        {
            self.ops.push(Op::ClearNonfinite(h));
        }
    }

    fn remove_joint(&mut self, h: ImpulseJointHandle) {
        self.ops.push(Op::Remove(h));
    }

    fn insert_joint(
        &mut self,
        slot: usize,
        bodies: [RigidBodyHandle; 2],
        joint: GenericJoint,
    ) -> Option<ImpulseJointHandle> {
        self.ops.push(Op::Insert(slot as u32, bodies, Box::new(joint)));
        None
    }

    fn give_back(&mut self, g: GiveBack) {
        self.ops.push(Op::GiveBack(g));
    }

    fn report_once(&mut self, d: Diagnostic) {
        self.ops.push(Op::Report(d));
    }

    fn need_anchor(&mut self) {
        self.ops.push(Op::NeedAnchor);
    }
}

impl TriboRapier {
    /// Makes the recorded effects `ops` (in the order recorded, see the module docs).
    #[cfg(feature = "parallel")]
    #[inline(never)]
    pub(super) fn apply(&mut self, ops: impl IntoIterator<Item = Op>, joints: &mut ImpulseJointSet) {
        let mut fx = Direct::new(joints, &mut self.motors, &mut self.reported, &mut self.diagnostics);
        for op in ops {
            match op {
                Op::SetMotor(h, rows) => {
                    if let Some(jj) = tribo_joint_mut(fx.joints, h) {
                        super::motor::set_motor(&mut jj.data, &rows);
                    }
                }
                Op::ClearRows(h) => {
                    // Checked when recorded (the joint set does not change in between).
                    let _ = fx.clear_motor_rows(h);
                }
                Op::ClearNonfinite(h) => fx.clear_nonfinite_motor_impulse(h),
                Op::Remove(h) => fx.remove_joint(h),
                Op::Insert(slot, [b1, b2], joint) => {
                    let h = fx.joints.insert(b1, b2, *joint, false);
                    if let Some(s) = self.contacts.states.get_mut(slot as usize) {
                        s.joint = Some(h);
                    }
                }
                Op::GiveBack(g) => fx.give_back(g),
                Op::Report(d) => fx.report_once(d),
                Op::NeedAnchor => fx.need_anchor(),
            }
        }
    }
}
