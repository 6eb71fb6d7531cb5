//! The objects tribo puts into a rapier world (motor joints, the hidden anchor body): adopting
//! a world, creating the anchor, removing every marked object.

use super::*;

/// tribo's objects in a rapier world, as the store knows them.
#[derive(Clone, Debug, Default)]
pub(super) struct Motors {
    /// The hidden fixed body the motors of world sides attach to, if created or adopted.
    pub(super) anchor: Option<RigidBodyHandle>,
    /// A plan waits for the hidden anchor body (created by the next `before_step`).
    pub(super) needs_anchor: bool,
    /// The store has taken over the tribo objects of the world it steps: on the first
    /// `before_step` of a store that has not, motor joints carrying [`TRIBO_JOINT_USER_DATA`]
    /// that no contact of this store owns are removed (orphans of a dropped store or of a
    /// restored snapshot) and an existing anchor body is adopted.
    pub(super) adopted: bool,
    /// Angular impulses the motors of contacts without points gave their bodies in the last
    /// step, given back by the next `before_step` (see `give_back`).
    pub(super) give_back: Vec<super::give_back::GiveBack>,
}

impl TriboRapier {
    /// Removes every object tribo puts into a rapier world — the motor joints and the hidden
    /// anchor body, all carrying the marker [`TRIBO_JOINT_USER_DATA`] in their `user_data` —
    /// whichever store made them. Returns the number of joints and bodies removed.
    ///
    /// Use it to turn a world (for example one restored from a snapshot) back into a plain
    /// rapier world. A store that keeps stepping the world needs no such call: a new store, or
    /// one after [`forget_world`](Self::forget_world), cleans up the orphans by itself on its
    /// first [`before_step`](Self::before_step). Any store still attached to the world must
    /// [`forget_world`](Self::forget_world) afterwards.
    pub fn remove_tribo_objects(
        islands: &mut IslandManager,
        bodies: &mut RigidBodySet,
        colliders: &mut ColliderSet,
        impulse_joints: &mut ImpulseJointSet,
        multibody_joints: &mut MultibodyJointSet,
    ) -> (usize, usize) {
        let marked_joints: Vec<ImpulseJointHandle> =
            impulse_joints.iter().filter(|(_, j)| is_tribo_joint(j)).map(|(h, _)| h).collect();
        for &h in &marked_joints {
            impulse_joints.remove(h, true);
        }
        let marked_bodies: Vec<RigidBodyHandle> = bodies
            .iter()
            .filter(|(_, b)| b.user_data == TRIBO_JOINT_USER_DATA && b.is_fixed() && b.colliders().is_empty())
            .map(|(h, _)| h)
            .collect();
        for &h in &marked_bodies {
            compat::remove_body(islands, bodies, colliders, impulse_joints, multibody_joints, h);
        }
        (marked_joints.len(), marked_bodies.len())
    }

    /// Takes over a world on this store's first `before_step`: removes the tribo motor joints
    /// no contact of this store owns and adopts an existing anchor body.
    pub(super) fn adopt_world(&mut self, bodies: &RigidBodySet, joints: &mut ImpulseJointSet) {
        self.motors.adopted = true;
        let owned: std::collections::HashSet<ImpulseJointHandle> =
            self.contacts.states.iter().filter_map(|s| s.joint).collect();
        let orphans: Vec<ImpulseJointHandle> =
            joints.iter().filter(|(h, j)| is_tribo_joint(j) && !owned.contains(h)).map(|(h, _)| h).collect();
        for h in orphans {
            joints.remove(h, true);
        }
        if self.motors.anchor.is_none_or(|a| !bodies.contains(a)) {
            self.motors.anchor = bodies
                .iter()
                .find(|(_, b)| {
                    b.user_data == TRIBO_JOINT_USER_DATA && b.is_fixed() && b.colliders().is_empty()
                })
                .map(|(h, _)| h);
        }
    }

    pub(super) fn anchor_or_create(&mut self, bodies: &mut RigidBodySet) -> RigidBodyHandle {
        if let Some(a) = self.motors.anchor.filter(|a| bodies.contains(*a)) {
            return a;
        }
        let a = bodies.insert(RigidBodyBuilder::fixed().user_data(TRIBO_JOINT_USER_DATA));
        self.motors.anchor = Some(a);
        a
    }

    /// The hidden anchor body and its pose, if it exists.
    pub(super) fn anchor_pose(&self, bodies: &RigidBodySet) -> Option<(RigidBodyHandle, Pose)> {
        self.motors.anchor.and_then(|a| Some((a, *bodies.get(a)?.position())))
    }
}
